package era

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The eras are vocabulary below the connections: of relavium they import
// nothing, and of the world only the go-sdk's protocol types.
func TestEraImportsNothingOfRelavium(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/relavium/relavium/host/era").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/modelcontextprotocol/go-sdk/mcp") {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	for _, p := range deps {
		if strings.HasPrefix(p, "github.com/relavium/") && p != "github.com/relavium/relavium/host/era" {
			t.Errorf("era depends on %s", p)
		}
	}
}
