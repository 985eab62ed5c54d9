package projectfiles

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Workflow writes a minimal mcp_call workflow (see the package contract).
func Workflow(t testing.TB, project, id, sideEffect, gate string) {
	t.Helper()
	dir := filepath.Join(project, ".relavium", "workflows")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	steps := "mcp_servers: [{ref: demo}]\nsteps:\n  - id: look\n    tool: mcp_demo_echo\n    args: {text: \"{{inputs.target}}\"}\n"
	if gate != "" {
		steps = "steps:\n  - id: approve\n    gate: " + quote(gate) + "\n"
	}
	y := "id: " + id + "\ndescription: test workflow " + id + "\ntrigger: {type: mcp_call}\nside_effect: " + sideEffect +
		"\ninputs:\n  - {name: target, type: string, required: true}\n  - {name: days, type: integer, default: 30}\n" + steps +
		"outputs:\n  target: \"{{inputs.target}}\"\n"
	if err := os.WriteFile(filepath.Join(dir, id+".yaml"), []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
}

// quote spells s as a double-quoted YAML scalar (JSON's quoting is YAML's).
func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
