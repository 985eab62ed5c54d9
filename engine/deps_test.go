package engine

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// engine is platform-pure (DESIGN.md dependency rules): it must never
// depend, even transitively, on the MCP SDK, on process or network
// packages, or on host (whose config imports net).
func TestEngineDependenciesArePlatformPure(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/relavium/relavium/engine").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, "github.com/relavium/relavium/engine") {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	forbidden := func(p string) bool {
		switch {
		case p == "os/exec", p == "net", p == "net/http", strings.HasPrefix(p, "net/http/"),
			p == "syscall/js",
			strings.HasPrefix(p, "github.com/modelcontextprotocol/go-sdk"),
			strings.HasPrefix(p, "github.com/relavium/relavium/host"),
			strings.HasPrefix(p, "github.com/relavium/relavium/invoke"),
			strings.HasPrefix(p, "github.com/relavium/relavium/tui"),
			strings.HasPrefix(p, "github.com/coder/websocket"):
			return true
		}
		return false
	}
	for _, p := range deps {
		if forbidden(p) {
			t.Errorf("engine depends on %s", p)
		}
	}
}
