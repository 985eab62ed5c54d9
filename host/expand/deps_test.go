package expand

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The expansion stands on consent (the one reading of a reference), the
// secret stores and host's coded error, never on host's root or above.
func TestExpandImportsOnlyItsFloor(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+"host/expand").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, module+"consent") {
		t.Fatalf("go list returned too little to judge: %q", imports)
	}
	allowed := []string{"consent", "fault", "host/failure", "host/secrets"}
	for _, p := range imports {
		if rel, ok := strings.CutPrefix(p, module); ok && !slices.Contains(allowed, rel) {
			t.Errorf("expand imports %s", rel)
		}
	}
}
