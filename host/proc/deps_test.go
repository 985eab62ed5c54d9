package proc

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The process side stands below the connections: of relavium it reaches
// only the leaves it names (the display sanitizer, the redactor, the
// sandbox and what those stand on), never host, MCP or anything above.
func TestProcImportsOnlyLeaves(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-deps", module+"host/proc").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, module+"sandbox") {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	allowed := []string{"host/proc", "engine/sanitize", "redact", "sandbox", "fault", "consent/canonjson"}
	for _, p := range deps {
		if strings.HasPrefix(p, "github.com/modelcontextprotocol/") {
			t.Errorf("proc depends on %s: it knows nothing of MCP", p)
		}
		rel, ok := strings.CutPrefix(p, module)
		if ok && !slices.Contains(allowed, rel) {
			t.Errorf("proc depends on %s", rel)
		}
	}
}
