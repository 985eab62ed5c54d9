package invoke

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The command line sits on the session core, beside the workbench, and the
// machine surface sits on the command line: invoke never depends, even
// transitively, on tui or machine (main hands them in as Env.Session and
// Env.Serve).
func TestInvokeImportsNeitherFace(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-deps", module+"invoke").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, module+"session") {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	for _, p := range deps {
		for _, face := range []string{"tui", "machine"} {
			if p == module+face || strings.HasPrefix(p, module+face+"/") {
				t.Errorf("invoke depends on %s", p)
			}
		}
	}
}
