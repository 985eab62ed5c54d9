package erahttp

import (
	"os/exec"
	"strings"
	"testing"
)

// erahttp sits under the demo server and mcp serve, so it imports nothing of
// relavium's.
func TestImportsOnlyStdlibAndSDK(t *testing.T) {
	const self = "github.com/relavium/relavium/internal/erahttp"
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, self).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if len(imports) < 2 {
		t.Fatalf("go list returned too little to judge: %q", imports)
	}
	for _, p := range imports {
		if strings.Contains(p, ".") && p != "github.com/modelcontextprotocol/go-sdk/mcp" {
			t.Errorf("erahttp imports %s", p)
		}
	}
}
