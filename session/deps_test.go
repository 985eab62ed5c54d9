package session

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The session core sits below both faces: it never depends, even
// transitively, on invoke (the command line) or tui (the workbench), nor on
// a terminal library.
func TestSessionDependsOnNoFace(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/relavium/relavium/session").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, "github.com/relavium/relavium/host") {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	for _, p := range deps {
		switch {
		case strings.HasPrefix(p, "github.com/relavium/relavium/invoke"),
			strings.HasPrefix(p, "github.com/relavium/relavium/tui"),
			strings.HasPrefix(p, "github.com/charmbracelet/"),
			strings.HasPrefix(p, "github.com/mattn/go-isatty"):
			t.Errorf("session depends on %s", p)
		}
	}
}
