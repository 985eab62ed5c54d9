package stream

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The byte stream stands below the connections: of relavium it imports only
// the sanitizer, fault and the nesting gauge, and depends on nothing of
// host's.
func TestStreamImportsOnlyLeaves(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+"host/stream").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, module+"nesting") {
		t.Fatalf("go list returned too little to judge: %q", imports)
	}
	allowed := []string{"engine/sanitize", "fault", "nesting"}
	for _, p := range imports {
		if rel, ok := strings.CutPrefix(p, module); ok && !slices.Contains(allowed, rel) {
			t.Errorf("stream imports %s", rel)
		}
	}
	out, err = exec.Command("go", "list", "-deps", module+"host/stream").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(p, module); ok && strings.HasPrefix(rel, "host") && rel != "host/stream" {
			t.Errorf("stream depends on %s", rel)
		}
	}
}
