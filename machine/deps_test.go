package machine

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/relavium/relavium/"

// goList returns the fields of `go list -f format pkg`, failing when it
// returns too little to judge.
func goList(t *testing.T, format, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", format, module+pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", pkg, err, out)
	}
	return strings.Fields(string(out))
}

// The machine surface sits on invoke's command table and connects to no MCP
// server itself (every request runs as a child of the same binary), so it
// imports neither host, session nor consent directly, and never the TUI.
func TestMachineImports(t *testing.T) {
	direct := goList(t, `{{join .Imports " "}}`, "machine")
	if !slices.Contains(direct, module+"invoke") {
		t.Fatalf("go list returned too little to judge: %q", direct)
	}
	for _, p := range direct {
		for _, bad := range []string{"host", "session", "consent", "tui"} {
			if p == module+bad || strings.HasPrefix(p, module+bad+"/") {
				t.Errorf("machine imports %s", p)
			}
		}
	}
	for _, p := range goList(t, `{{join .Deps " "}}`, "machine") {
		if p == module+"tui" || strings.HasPrefix(p, module+"tui/") {
			t.Errorf("machine depends on %s", p)
		}
	}
}
