package projectfiles

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// projectfiles is imported by tests across the module, so it must pull in
// nothing but the standard library.
func TestProjectfilesImportsStandardLibraryOnly(t *testing.T) {
	const self = "github.com/relavium/relavium/internal/projectfiles"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", self).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 5 || !slices.Contains(lines, self+" false") || !slices.Contains(lines, "testing true") {
		t.Fatalf("go list returned too little to judge: %q", lines)
	}
	for _, l := range lines {
		if strings.HasSuffix(l, " false") && l != self+" false" {
			t.Errorf("projectfiles depends on %s", strings.TrimSuffix(l, " false"))
		}
	}
}
