package failure

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// host's coded error stands on fault and the vocabulary alone: of relavium
// it imports engine, engine/sanitize and fault, and depends on nothing of
// host's.
func TestFailureImportsOnlyTheVocabulary(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+"host/failure").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, module+"fault") {
		t.Fatalf("go list returned too little to judge: %q", imports)
	}
	allowed := []string{"engine", "engine/sanitize", "fault"}
	for _, p := range imports {
		if rel, ok := strings.CutPrefix(p, module); ok && !slices.Contains(allowed, rel) {
			t.Errorf("failure imports %s", rel)
		}
	}
	out, err = exec.Command("go", "list", "-deps", module+"host/failure").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(p, module); ok && strings.HasPrefix(rel, "host") && rel != "host/failure" {
			t.Errorf("failure depends on %s", rel)
		}
	}
}
