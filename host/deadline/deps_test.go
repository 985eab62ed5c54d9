package deadline

import (
	"os/exec"
	"strings"
	"testing"
)

// The call clock and its test clock stand on the standard library alone,
// and the test clock is never part of a program: no package of the module
// imports deadlinetest from a non-test file.
func TestDeadlineImportsOnlyTheStandardLibrary(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	for _, pkg := range []string{"host/deadline", "host/deadline/deadlinetest"} {
		out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		imports := strings.Fields(string(out))
		if len(imports) == 0 {
			t.Fatalf("go list returned no imports of %s to judge", pkg)
		}
		for _, p := range imports {
			if strings.Contains(strings.Split(p, "/")[0], ".") {
				t.Errorf("%s imports %s, not the standard library", pkg, p)
			}
		}
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) > 1 && strings.Contains(line, module+"host/deadline/deadlinetest") && f[0] != module+"host/deadline/deadlinetest" {
			t.Errorf("%s imports deadlinetest outside its tests", f[0])
		}
	}
}
