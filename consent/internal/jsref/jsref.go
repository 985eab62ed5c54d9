package jsref

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Traps are characters where Go and JavaScript string handling differ:
// JSON.stringify escapes, HTML characters encoding/json escapes, line and
// paragraph separators, and code points whose UTF-16 order is not their
// byte order.
var Traps = []rune{'a', 'Z', '_', '"', '\\', '/', '<', '>', '&', 0, 1, 8, 9, 10, 12, 13, 0x1b, 0x1f, 0x7f, 0x80, 0x9f,
	0xe9, 0x2028, 0x2029, 0x202e, 0xd7ff, 0xe000, 0xfeff, 0xff61, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff}

// String returns up to max-1 characters drawn from Traps.
func String(rng *rand.Rand, max int) string {
	var b strings.Builder
	for n := rng.IntN(max); n > 0; n-- {
		b.WriteRune(Traps[rng.IntN(len(Traps))])
	}
	return b.String()
}

// Answer is the reference's answer to one request.
type Answer struct {
	Canonical string `json:"canonical"`
	Digest    string `json:"digest"` // for a {"fp": ...} request
}

// Ask sends each request — {"fp":[command,args,env,cwd]} or
// {"value":<json>} — to node running script and returns the answers in
// request order. It skips t when node is not installed (the committed
// vectors in testdata/consent cover the same traps without it).
func Ask(t testing.TB, script string, requests []any) []Answer {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; testdata/consent/vectors.json holds node-computed vectors for the same traps")
	}
	var in bytes.Buffer
	for _, r := range requests {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(line)
		in.WriteByte('\n')
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node: %v\n%s", err, stderr)
	}
	var answers []Answer
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var a Answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		answers = append(answers, a)
	}
	if len(answers) != len(requests) {
		t.Fatalf("node answered %d of %d requests", len(answers), len(requests))
	}
	return answers
}
