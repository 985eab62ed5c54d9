package authored

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLeafImports: authored is a leaf every reader of authored files
// imports: the standard library, goccy/go-yaml and nesting, nothing else.
func TestLeafImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/relavium/relavium/authored").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	for _, p := range deps {
		switch {
		case !strings.Contains(strings.Split(p, "/")[0], "."),
			strings.HasPrefix(p, "github.com/goccy/go-yaml"),
			p == "github.com/relavium/relavium/nesting", p == "github.com/relavium/relavium/authored",
			p == "github.com/relavium/relavium/fault":
		default:
			t.Errorf("authored depends on %s", p)
		}
	}
}
