package browse

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The browse requests stand below the connections: of relavium they import
// only engine, the display sanitizer, fault and host's coded error.
func TestBrowseImportsOnlyItsFloor(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+"host/browse").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, module+"host/failure") {
		t.Fatalf("go list returned too little to judge: %q", imports)
	}
	allowed := []string{"engine", "engine/sanitize", "fault", "host/failure"}
	for _, p := range imports {
		if rel, ok := strings.CutPrefix(p, module); ok && !slices.Contains(allowed, rel) {
			t.Errorf("browse imports %s", rel)
		}
	}
}
