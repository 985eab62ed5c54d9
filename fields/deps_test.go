package fields_test

import (
	"os/exec"
	"strings"
	"testing"
)

// fields is a leaf engine imports, so it must stay platform-pure: of
// relavium's packages it may import nesting only, and nothing outside the
// standard library. fieldstest imports the standard library only.
func TestFieldsImportsOnlyTheStandardLibraryAndNesting(t *testing.T) {
	for pkg, allowed := range map[string][]string{
		"github.com/relavium/relavium/fields":            {"github.com/relavium/relavium/fields", "github.com/relavium/relavium/nesting"},
		"github.com/relavium/relavium/fields/fieldstest": {"github.com/relavium/relavium/fields/fieldstest"},
	} {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) == 0 {
			t.Fatalf("go list returned nothing for %s", pkg)
		}
	next:
		for _, d := range deps {
			for _, a := range allowed {
				if d == a {
					continue next
				}
			}
			t.Errorf("%s depends on %s", pkg, d)
		}
	}
}
