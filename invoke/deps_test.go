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

// familyUses are the only imports between command families, each named in
// the importing family's doc.go: the CI gates and the session connect the
// declared servers as the mcp family does (its Targets and listings).
var familyUses = map[string][]string{
	"invoke/cmd/gates":   {"invoke/cmd/mcp"},
	"invoke/cmd/session": {"invoke/cmd/mcp"},
}

// The rooms of the command line: the kit (invoke/cli) stands below every
// command family and knows none of them; a family (invoke/cmd/<noun>)
// stands on the kit, never on the table (package invoke), which is the
// one place the families meet, and never on another family but for the
// uses familyUses names.
func TestCommandLineRooms(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", module+"invoke/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkgs := strings.Fields(string(out))
	if !slices.Contains(pkgs, module+"invoke/cli") {
		t.Fatalf("go list found no kit: %q", pkgs)
	}
	for _, pkg := range pkgs {
		rel := strings.TrimPrefix(pkg, module)
		var refused []string
		switch {
		case rel == "invoke/cli":
			refused = []string{"invoke", "invoke/cmd/"}
		case strings.HasPrefix(rel, "invoke/cmd/"):
			refused = []string{"invoke", "invoke/cmd/"}
		default:
			continue
		}
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", rel, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			d, ok := strings.CutPrefix(dep, module)
			if !ok || d == rel || slices.Contains(familyUses[rel], d) {
				continue
			}
			for _, r := range refused {
				if d == r || strings.HasSuffix(r, "/") && strings.HasPrefix(d, r) {
					t.Errorf("%s depends on %s", rel, d)
				}
			}
		}
	}
}
