package invoke

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The command line sits on the session core, beside the workbench: invoke
// never depends, even transitively, on tui (main hands it the workbench
// as Env.Session).
func TestInvokeDoesNotImportTUI(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/relavium/relavium/invoke").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, "github.com/relavium/relavium/session") {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	for _, p := range deps {
		if strings.HasPrefix(p, "github.com/relavium/relavium/tui") {
			t.Errorf("invoke depends on %s", p)
		}
	}
}
