package clientside

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The client side's connection-free pieces stand on the vocabulary below
// host: of relavium only canonical JSON, engine, the sanitizer, fault,
// fields and host's coded error (and what those stand on), never host's
// root, its other rooms or above.
func TestClientSideImportsOnlyTheVocabulary(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+"host/clientside").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, module+"engine") {
		t.Fatalf("go list returned too little to judge: %q", imports)
	}
	allowed := []string{"consent/canonjson", "engine", "engine/sanitize", "fault", "fields", "host/failure"}
	for _, p := range imports {
		if rel, ok := strings.CutPrefix(p, module); ok && !slices.Contains(allowed, rel) {
			t.Errorf("clientside imports %s", rel)
		}
	}
	out, err = exec.Command("go", "list", "-deps", module+"host/clientside").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(p, module); ok && strings.HasPrefix(rel, "host") && rel != "host/clientside" && rel != "host/failure" {
			t.Errorf("clientside depends on %s", rel)
		}
	}
}
