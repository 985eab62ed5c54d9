package docs

import (
	"os/exec"
	"strings"
	"testing"
)

// docs is a leaf: the standard library only.
func TestDocsImportsOnlyTheStandardLibrary(t *testing.T) {
	const self = "github.com/relavium/relavium/docs"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", self).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list returned nothing")
	}
	for _, d := range deps {
		if d != self {
			t.Errorf("docs depends on %s", d)
		}
	}
}
