package route

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The routing of what a server sends stands below the connections: of
// relavium it imports engine only, and nothing of MCP.
func TestRouteImportsOnlyEngine(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+"host/route").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, module+"engine") {
		t.Fatalf("go list returned too little to judge: %q", imports)
	}
	for _, p := range imports {
		if strings.HasPrefix(p, "github.com/modelcontextprotocol/") {
			t.Errorf("route imports %s: it knows nothing of MCP", p)
		}
		if rel, ok := strings.CutPrefix(p, module); ok && rel != "engine" {
			t.Errorf("route imports %s", rel)
		}
	}
}
