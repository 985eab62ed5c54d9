package secrets

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The secret stores stand on the file leaves alone: of relavium they import
// only atomicfile, fault, filelock, nesting and regularfile, and depend on
// nothing of host's.
func TestSecretsImportOnlyLeaves(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+"host/secrets").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, module+"regularfile") {
		t.Fatalf("go list returned too little to judge: %q", imports)
	}
	allowed := []string{"atomicfile", "fault", "filelock", "nesting", "regularfile"}
	for _, p := range imports {
		if rel, ok := strings.CutPrefix(p, module); ok && !slices.Contains(allowed, rel) {
			t.Errorf("secrets imports %s", rel)
		}
	}
	out, err = exec.Command("go", "list", "-deps", module+"host/secrets").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(p, module); ok && strings.HasPrefix(rel, "host") && rel != "host/secrets" {
			t.Errorf("secrets depends on %s", rel)
		}
	}
}
