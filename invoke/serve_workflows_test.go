package invoke

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
)

func loadTestWorkflow(t *testing.T, sideEffect, gate string) *engine.Workflow {
	t.Helper()
	project := t.TempDir()
	writeWorkflow(t, project, "wf", sideEffect, gate)
	w, err := engine.LoadWorkflow(project, "wf")
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestWorkflowRequest(t *testing.T) {
	w := loadTestWorkflow(t, "write", "ok?")
	hex64 := strings.Repeat("9", 64)
	r, err := workflowRequest(w, json.RawMessage(`{"target":"a,b \"c\"","days":7.0,"confirm":"`+hex64+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Args, ",") != "wf" || r.Confirm != hex64 || strings.Join(r.Flags["input"].List, "|") != `days=7|target=a,b "c"` {
		t.Fatalf("%+v", r)
	}
	if r, err := workflowRequest(w, nil); err != nil || len(r.Flags) != 0 {
		t.Fatalf("no arguments: %+v %v", r, err)
	}
	for in, msg := range map[string]string{
		`{"target":"a","target":"b"}`: "appears twice",
		`{"nope":1}`:                  `has no input "nope"`,
		`{"target":null}`:             "null is not a value",
		`{"confirm":"x"}`:             "confirm must be 64",
		`[]`:                          "must be a JSON object",
		`{"target":"a"} 1`:            "data after",
	} {
		if _, err := workflowRequest(w, json.RawMessage(in)); err == nil || CodeOf(err) != CodeInvalidRequest || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want E420 %q", in, err, msg)
		}
	}
	if got, _ := inputText(json.RawMessage(`{"b": [1, 2]}`)); got != `{"b":[1,2]}` {
		t.Errorf("object input %q", got)
	}
}

func TestWorkflowToolSchemaAndGates(t *testing.T) {
	w := loadTestWorkflow(t, "destructive", "Wipe {{inputs.target}}?")
	tool, err := workflowTool(w)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(tool)
	if tool.Name != "relavium_wf" || !strings.Contains(string(b), `"confirm":{`) || !strings.Contains(string(b), `"readOnlyHint":false`) ||
		!strings.Contains(string(b), `"destructiveHint":true`) || !strings.Contains(string(b), `"target"`) {
		t.Fatalf("tool %s", b)
	}
	ans, ask := answerGates(w, nil)
	if ans != GatePending || len(ask) != 1 {
		t.Fatalf("unanswered: %v %v", ans, ask)
	}
	p := ask["gate:approve"].(*mcp.ElicitParams)
	if !strings.Contains(p.Message, "Wipe {{inputs.target}}?") {
		t.Fatalf("message %q", p.Message)
	}
	yes := mcp.InputResponseMap{"gate:approve": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	if ans, _ := answerGates(w, yes); ans != GateApproved {
		t.Fatal("accepted gate not approved")
	}
	for _, r := range []*mcp.ElicitResult{{Action: "decline"}, {Action: "cancel"}, {Action: "accept", Content: map[string]any{"approve": false}}, {Action: "accept"}} {
		if ans, _ := answerGates(w, mcp.InputResponseMap{"gate:approve": r}); ans != GateDeclined {
			t.Errorf("%+v: not declined", r)
		}
	}
	if ans, _ := answerGates(loadTestWorkflow(t, "write", ""), nil); ans != GateApproved {
		t.Fatal("a workflow without gates needs no answer")
	}
}
