package headers

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// A server's static headers stand below the connections: of relavium they
// import only the floors they name.
func TestHeadersImportOnlyTheirFloor(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+"host/headers").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, module+"host/netguard") {
		t.Fatalf("go list returned too little to judge: %q", imports)
	}
	allowed := []string{"consent", "fault", "host/expand", "host/failure", "host/netguard", "host/proc", "host/secrets", "redact"}
	for _, p := range imports {
		if rel, ok := strings.CutPrefix(p, module); ok && !slices.Contains(allowed, rel) {
			t.Errorf("headers imports %s", rel)
		}
	}
}
