package tasks

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Tasks stand below the connections: of relavium they import only the
// display sanitizer, fault and host's coded error, and nothing of MCP.
func TestTasksImportOnlyTheirFloor(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+"host/tasks").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, module+"host/failure") {
		t.Fatalf("go list returned too little to judge: %q", imports)
	}
	allowed := []string{"engine/sanitize", "fault", "host/failure"}
	for _, p := range imports {
		if strings.HasPrefix(p, "github.com/modelcontextprotocol/") {
			t.Errorf("tasks imports %s: the requests are host's", p)
		}
		if rel, ok := strings.CutPrefix(p, module); ok && !slices.Contains(allowed, rel) {
			t.Errorf("tasks imports %s", rel)
		}
	}
}
