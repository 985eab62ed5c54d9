package consent

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// agree checks the fast decoder against the reference: whenever the fast path
// accepts a line, encoding/json must accept it too and decode the same values.
func agree(t testing.TB, line string) bool {
	var fast wireLine
	if !fastDecode(line, &fast, &arena{}) {
		return false
	}
	slow, reason := slowDecode(line)
	if reason != "" {
		t.Fatalf("fast path accepted a line encoding/json refuses (%s): %q", reason, line)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("fast and reference decoders disagree on %q:\nfast %+v\nslow %+v", line, fast, slow)
	}
	return true
}

func seedLines() [][]byte {
	r := mustResolved("s", "/usr/bin/npx", []string{"-y", "é☃", ""}, []EnvEntry{TagEnv("B", "{{secrets.k}}"), TagEnv("A", "x")}, "/w")
	g, _ := encodeGrant(r, time.Unix(0, 0))
	rv, _ := encodeRevoke(r.Digest, time.Unix(0, 0))
	return [][]byte{
		g[:len(g)-1], rv[:len(rv)-1],
		[]byte(` { "v" : 1 , "revokes" : "v1:ab" , "revokedAt" : "x" } `),
		[]byte(`{"v":1,"digest":"v1:ab","command":"/x","args":[],"envNames":[ ],"cwd":"/","grantedAt":"t","envKinds":{}}`),
		[]byte(`{"v":10,"extra":true}`), []byte(`{}`), []byte(`{"v":01}`), []byte(`{"v":1.0}`), []byte(`{"v":-1}`),
		[]byte(`{"v":1,"v":2}`), []byte(`{"V":1}`), []byte(`{"v":1,"args":["a\"b"]}`), []byte(`{"v":1,"cwd":"\u00e9"}`),
		[]byte("{\"v\":1,\"cwd\":\"\xff\"}"), []byte(`{"v":1,"envKinds":{"a":"x","a":"y"}}`), []byte(`{"v":1,"args":null}`),
	}
}

func TestFastDecodeAgreesWithSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	tokens := []string{`"`, `\`, `,`, `:`, `{`, `}`, `[`, `]`, ` `, "\t", "\n", "\r", "\x00", "\xff", "é", `1`, `0`, `.`, `e`,
		`-`, `null`, `true`, `"v"`, `"digest"`, `"server"`, `"args"`, `"envKinds"`, `\u0041`, `""`}
	fastHits := 0
	for _, seed := range seedLines() {
		if agree(t, string(seed)) {
			fastHits++
		}
		for i := 0; i < 3000; i++ {
			b := append([]byte(nil), seed...)
			for n := 1 + rng.IntN(3); n > 0 && len(b) > 0; n-- {
				at := rng.IntN(len(b))
				switch rng.IntN(3) {
				case 0: // delete a byte
					b = append(b[:at], b[at+1:]...)
				case 1: // insert a token
					b = append(b[:at], append([]byte(tokens[rng.IntN(len(tokens))]), b[at:]...)...)
				default: // replace a byte
					b[at] = tokens[rng.IntN(len(tokens))][0]
				}
			}
			if agree(t, string(b)) {
				fastHits++
			}
		}
	}
	if fastHits < 1000 {
		t.Fatalf("only %d mutated lines took the fast path: the comparison is too weak", fastHits)
	}
}

func FuzzFastDecodeAgreesWithSlow(f *testing.F) {
	for _, s := range seedLines() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line []byte) { agree(t, string(line)) })
}
