package invoke

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/fault"
)

// machineEnvelope decodes one --json envelope.
type machineEnvelope struct {
	OK    bool            `json:"ok"`
	Data  json.RawMessage `json:"data"`
	Error *struct {
		Code    fault.Code `json:"code"`
		Message string     `json:"message"`
		Cause   any        `json:"cause"`
	} `json:"error"`
}

// writeWorkflow writes a minimal mcp_call workflow with two inputs and either
// one gate step (gate set; it runs without any server) or one tool step.
func writeWorkflow(t *testing.T, project, id, sideEffect, gate string) {
	t.Helper()
	dir := filepath.Join(project, ".relavium", "workflows")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	steps := "mcp_servers: [{ref: demo}]\nsteps:\n  - id: look\n    tool: mcp_demo_echo\n    args: {text: \"{{inputs.target}}\"}\n"
	if gate != "" {
		steps = "steps:\n  - id: approve\n    gate: " + strconvQuote(gate) + "\n"
	}
	y := "id: " + id + "\ndescription: test workflow " + id + "\ntrigger: {type: mcp_call}\nside_effect: " + sideEffect +
		"\ninputs:\n  - {name: target, type: string, required: true}\n  - {name: days, type: integer, default: 30}\n" + steps +
		"outputs:\n  target: \"{{inputs.target}}\"\n"
	if err := os.WriteFile(filepath.Join(dir, id+".yaml"), []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }
