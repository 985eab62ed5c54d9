package tui

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The workbench sits on the session core, beside the command line, never
// on it: tui never depends, even transitively, on invoke (main wires the
// two faces together).
func TestTUIDoesNotImportInvoke(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/relavium/relavium/tui").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, "github.com/relavium/relavium/session") {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	for _, p := range deps {
		if strings.HasPrefix(p, "github.com/relavium/relavium/invoke") {
			t.Errorf("tui depends on %s", p)
		}
	}
}
