package mcp

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/invoke/cli"
)

// A tool typed by the server's own name (`echo`) is pointed at its
// namespaced name; a typo of a namespaced name gets the closest one; a
// name close to nothing gets no guess.
func TestToolNotFoundSuggests(t *testing.T) {
	tools := []engine.ToolDef{
		{Name: "mcp_demo_echo", Server: "demo", Tool: "echo"},
		{Name: "mcp_other_echo", Server: "other", Tool: "echo"},
		{Name: "mcp_demo_add_numbers", Server: "demo", Tool: "add_numbers"},
	}
	servers := []config.Server{{Name: "demo"}, {Name: "other"}}
	cases := []struct{ typed, want string }{
		{"echo", "did you mean mcp_demo_echo or mcp_other_echo?"},
		{"add_numbers", "did you mean mcp_demo_add_numbers?"},
		{"mcp_demo_add_numbrs", "did you mean mcp_demo_add_numbers?"},
	}
	for _, c := range cases {
		err := toolNotFound(c.typed, tools, nil, servers)
		if fault.CodeOf(err, "") != cli.CodeToolNotFound || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v (code %s), want %q", c.typed, err, fault.CodeOf(err, ""), c.want)
		}
	}
	if err := toolNotFound("zzzzzz", tools, nil, servers); strings.Contains(err.Error(), "did you mean") {
		t.Errorf("a name close to nothing got a guess: %v", err)
	}
}
