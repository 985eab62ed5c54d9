package loadtest

import (
	"os/exec"
	"strings"
	"testing"
)

// loadtest measures whatever a Target does: it never reaches a connection,
// the session or a face itself.
func TestLoadtestImportsNoConnection(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/relavium/relavium/loadtest").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	for _, p := range deps {
		for _, banned := range []string{"github.com/relavium/relavium/host", "github.com/relavium/relavium/invoke",
			"github.com/relavium/relavium/session", "github.com/relavium/relavium/tui", "github.com/modelcontextprotocol/go-sdk"} {
			if p == banned || strings.HasPrefix(p, banned+"/") {
				t.Errorf("loadtest depends on %s", p)
			}
		}
	}
}
