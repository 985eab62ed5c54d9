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

// The workbench's subpackages sit below its root model: render draws
// content, form and dialog are widgets over it, backend is the seam to IO
// and live the adapter behind it; none of them reaches up to package tui
// (the model), nor sideways beyond what is listed here: the drawing
// packages never reach the adapter, the adapter never reaches a drawing.
func TestSubpackagesDoNotImportTheRoot(t *testing.T) {
	const root = "github.com/relavium/relavium/tui"
	allowed := map[string][]string{ // subpackage → the tui subpackages it may use
		"render":       nil,
		"form":         {"render"},
		"dialog":       {"render", "form"},
		"wireview":     {"render", "dialog", "form"},
		"backend":      nil,
		"live":         {"backend"},
		"shellcmd":     {"render"},
		"graphics":     nil,
		"keymap":       nil,
		"asker":        nil,
		"resultsearch": {"render"},
		"fieldedit":    {"render", "dialog", "form"},
		"eventstrip":   {"render"},
		"serverinfo":   {"render", "backend"},
		"resultview":   {"render", "graphics"},
		"callcmd":      nil,
		"detailview":   {"render", "dialog", "form"},
		"clipboard":    {"render", "dialog", "form"},
		"header":       {"render"},
	}
	for sub, may := range allowed {
		out, err := exec.Command("go", "list", "-deps", root+"/"+sub).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", sub, err, out)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, root+"/"+sub) {
			t.Fatalf("go list %s returned too little to judge: %q", sub, deps)
		}
		for _, p := range deps {
			if p != root && !strings.HasPrefix(p, root+"/") || p == root+"/"+sub {
				continue
			}
			if p == root || !slices.Contains(may, strings.TrimPrefix(p, root+"/")) {
				t.Errorf("tui/%s depends on %s", sub, p)
			}
		}
	}
}
