package direct

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// relavium's own requests stand below the connections: of relavium they
// import only fault and host's coded error.
func TestDirectImportsOnlyItsFloor(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+"host/direct").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, module+"host/failure") {
		t.Fatalf("go list returned too little to judge: %q", imports)
	}
	allowed := []string{"fault", "host/failure"}
	for _, p := range imports {
		if rel, ok := strings.CutPrefix(p, module); ok && !slices.Contains(allowed, rel) {
			t.Errorf("direct imports %s", rel)
		}
	}
}
