package engine

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// platformImpure names what neither engine nor the workflow language may
// depend on, even transitively: the MCP SDK, process and network packages,
// and the floors above (host, whose config imports net; invoke; tui).
func platformImpure(p string) bool {
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

func depsOf(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, pkg) {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	return deps
}

// engine is the platform-pure shared vocabulary: beside the platform rule,
// it never depends on the workflow language or on the YAML reader.
func TestEngineDependenciesArePlatformPure(t *testing.T) {
	for _, p := range depsOf(t, "github.com/relavium/relavium/engine") {
		if platformImpure(p) || strings.HasPrefix(p, "github.com/relavium/relavium/workflow") ||
			strings.HasPrefix(p, "github.com/goccy/go-yaml") {
			t.Errorf("engine depends on %s", p)
		}
	}
}

// The workflow language sits on engine and is platform-pure like it.
func TestWorkflowDependenciesArePlatformPure(t *testing.T) {
	deps := depsOf(t, "github.com/relavium/relavium/workflow")
	if !slices.Contains(deps, "github.com/relavium/relavium/engine") {
		t.Errorf("workflow does not sit on engine: %q", deps)
	}
	for _, p := range deps {
		if platformImpure(p) {
			t.Errorf("workflow depends on %s", p)
		}
	}
}
