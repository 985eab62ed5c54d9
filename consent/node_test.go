package consent

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/consent/internal/jsref"
)

// TestDifferentialAgainstNode generates random declarations full of the
// characters where Go and JavaScript differ, and compares Go's canonical
// JSON and digest with the independent JavaScript reference in
// testdata/consent/canonical.js run by a real node process (secret-ref
// tagging included). It needs node; the committed vectors
// (TestTrapVectors) cover the same traps without it.
func TestDifferentialAgainstNode(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	str := func() string {
		s := jsref.String(rng, 6)
		if rng.IntN(8) == 0 {
			return "{{secrets." + s + "}}"
		}
		return s
	}
	type fp struct {
		command, cwd string
		args         []string
		env          [][2]string
	}
	var decls []fp
	var reqs []any
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
		env := append([][2]string{}, d.env...) // [] rather than null
		reqs = append(reqs, map[string]any{"fp": []any{d.command, d.args, env, d.cwd}})
	}
	answers := jsref.Ask(t, filepath.Join("..", "testdata", "consent", "canonical.js"), reqs)
	for i, want := range answers {
		d := decls[i]
		var env []EnvEntry
		for _, e := range d.env {
			env = append(env, TagEnv(e[0], e[1]))
		}
		got, err := fingerprintJSON(d.command, d.args, env, d.cwd, nil, nil)
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
}
