package consent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDifferentialAgainstNode generates random declarations and values full
// of the characters where Go and JavaScript differ, and compares Go's
// canonical JSON and digest with the independent JavaScript reference in
// testdata/consent/canonical.js run by a real node process. It needs node;
// the committed vectors (TestTrapVectors) cover the same traps without it.
func TestDifferentialAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; TestTrapVectors holds node-computed vectors for the same traps")
	}
	rng := rand.New(rand.NewPCG(7, 11))
	alphabet := []rune{'a', 'Z', '_', '"', '\\', '/', '<', '>', '&', 0, 1, 8, 9, 10, 12, 13, 0x1b, 0x1f, 0x7f, 0x80, 0x9f,
		0xe9, 0x2028, 0x2029, 0x202e, 0xd7ff, 0xe000, 0xfeff, 0xff61, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff}
	str := func() string {
		var b strings.Builder
		for n := rng.IntN(6); n > 0; n-- {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		if rng.IntN(8) == 0 {
			return "{{secrets." + b.String() + "}}"
		}
		return b.String()
	}
	type fp struct {
		command, cwd string
		args         []string
		env          [][2]string
	}
	var decls []fp
	var req bytes.Buffer
	for i := 0; i < 400; i++ {
		d := fp{command: "/bin/" + str(), cwd: "/" + str()}
		d.args = []string{}
		for n := rng.IntN(4); n > 0; n-- {
			d.args = append(d.args, str())
		}
		seen := map[string]bool{}
		for n := rng.IntN(5); n > 0; n-- {
			k := str()
			if seen[k] {
				continue
			}
			seen[k] = true
			d.env = append(d.env, [2]string{k, str()})
		}
		decls = append(decls, d)
		envPairs := make([][2]string, len(d.env))
		copy(envPairs, d.env)
		line, _ := json.Marshal(map[string]any{"fp": []any{d.command, d.args, envPairs, d.cwd}})
		req.Write(line)
		req.WriteByte('\n')
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("..", "testdata", "consent", "canonical.js"))
	cmd.Stdin = &req
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	i := 0
	for ; sc.Scan(); i++ {
		var want struct{ Canonical, Digest string }
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		d := decls[i]
		var env []EnvEntry
		for _, e := range d.env {
			env = append(env, TagEnv(e[0], e[1]))
		}
		got, err := fingerprintJSON(d.command, d.args, env, d.cwd)
		if err != nil {
			t.Fatalf("decl %d: %v", i, err)
		}
		if string(got) != want.Canonical {
			t.Fatalf("decl %d canonical JSON differs:\n go   %+q\n node %+q", i, got, want.Canonical)
		}
		if dg, _ := Digest(d.command, d.args, env, d.cwd); dg != want.Digest {
			t.Fatalf("decl %d digest %s, node %s", i, dg, want.Digest)
		}
	}
	if i != len(decls) {
		t.Fatalf("node answered %d of %d declarations", i, len(decls))
	}
}
