package gates

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// A gate stands on the connections and below: it never reaches the session
// core or a face, and nothing on the connections' floor reaches a gate.
func TestGatesStayOnTheirFloor(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	// Above the connections: the session core, the faces, sign-in and
	// authored config are never a gate's to reach.
	refused := []string{"session", "invoke", "tui", "machine", "oauth", "host/config", "workflow"}
	for _, gate := range []string{"gates/lock", "gates/lint", "gates/replay"} {
		out, err := exec.Command("go", "list", "-deps", module+gate).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", gate, err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 10 || !slices.Contains(deps, module+"fault") {
			t.Fatalf("go list returned too little to judge %s: %q", gate, deps)
		}
		for _, p := range deps {
			rel, ok := strings.CutPrefix(p, module)
			if !ok || rel == gate {
				continue
			}
			for _, r := range refused {
				if rel == r || strings.HasPrefix(rel, r+"/") {
					t.Errorf("%s depends on %s, above the gates' floor", gate, rel)
				}
			}
		}
	}
	for _, conn := range []string{"host", "host/discovery", "host/wire", "host/netguard", "host/config", "session"} {
		out, err := exec.Command("go", "list", "-deps", module+conn).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", conn, err, out)
		}
		for _, p := range strings.Fields(string(out)) {
			if strings.HasPrefix(p, module+"gates") {
				t.Errorf("%s depends on the gate %s: gates sit above the connections", conn, p)
			}
		}
	}
}
