package machine

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/internal/projectfiles"
	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/workflow"
)

func loadTestWorkflow(t *testing.T, sideEffect, gate string) *workflow.Workflow {
	t.Helper()
	project := t.TempDir()
	projectfiles.Workflow(t, project, "wf", sideEffect, gate)
	w, err := workflow.LoadWorkflow(project, "wf")
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
		if _, err := workflowRequest(w, json.RawMessage(in)); err == nil || cli.CodeOf(err) != CodeInvalidRequest || !strings.Contains(err.Error(), msg) {
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
	ans, ask := answerGates(w, nil, nil)
	if ans != GatePending || len(ask) != 1 {
		t.Fatalf("unanswered: %v %v", ans, ask)
	}
	p := ask["gate:approve"].(*mcp.ElicitParams)
	if !strings.Contains(p.Message, "Wipe {{inputs.target}}?") { // no input given: as written
		t.Fatalf("message %q", p.Message)
	}
	// The run's inputs fill the gate in, read from the plan it is asked for.
	_, ask = answerGates(w, planInputs(json.RawMessage(`{"inputs":{"target":"prod-db"},"workflow":"wf"}`)), nil)
	if p := ask["gate:approve"].(*mcp.ElicitParams); !strings.Contains(p.Message, "Wipe prod-db?") {
		t.Fatalf("message %q", p.Message)
	}
	yes := mcp.InputResponseMap{"gate:approve": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	if ans, _ := answerGates(w, nil, yes); ans != GateApproved {
		t.Fatal("accepted gate not approved")
	}
	for _, r := range []*mcp.ElicitResult{{Action: "decline"}, {Action: "cancel"}, {Action: "accept", Content: map[string]any{"approve": false}}, {Action: "accept"}} {
		if ans, _ := answerGates(w, nil, mcp.InputResponseMap{"gate:approve": r}); ans != GateDeclined {
			t.Errorf("%+v: not declined", r)
		}
	}
	if ans, _ := answerGates(loadTestWorkflow(t, "write", ""), nil, nil); ans != GateApproved {
		t.Fatal("a workflow without gates needs no answer")
	}
}

// A read workflow reaches the invoker as a read: it needs no audit log, a run
// is not logged and takes no operation lock, and its gates still go through
// the plan (a kind plan confirmation, or the client's answer).
func TestReadWorkflowOverTheMachineSurface(t *testing.T) {
	bin := testbin.Relavium(t)
	home, project := t.TempDir(), t.TempDir()
	projectfiles.Workflow(t, project, "peek", "read", "Look at {{inputs.target}}?")
	iv := &Invoker{Table: invoke.Commands(), Exe: bin, Project: project,
		Environ: []string{"PATH=" + os.Getenv("PATH"), "RELAVIUM_HOME=" + home, "HOME=" + home},
		Timeout: 60 * time.Second, Nonces: NewNonceStore(nil), Audit: NewAuditLog(home), Stderr: &strings.Builder{}}
	held, err := cli.AcquireOpLock(home, project) // a mutation of this project is in flight
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	ctx := context.Background()
	req := &Request{Args: []string{"peek"}, Flags: map[string]FlagValue{"input": {Kind: KindList, List: []string{"target=x"}}}}

	as := Options{Session: "session:test bearer:", Tool: WorkflowToolName("peek")}
	res := iv.InvokeRequest(ctx, TransportMCPStdio, []string{"run"}, req, as)
	if res.Confirm == nil || res.Confirm.Kind != KindPlan || res.Confirm.SideEffect != cli.Read || res.ExitCode != nil {
		t.Fatalf("a gated read workflow: want a kind plan confirmation of a read, got %s", res.Envelope)
	}
	confirmed := req.Clone()
	confirmed.Confirm = res.Confirm.Confirm
	if run := iv.InvokeRequest(ctx, TransportMCPStdio, []string{"run"}, confirmed, as); !run.OK || run.ExitCode == nil || *run.ExitCode != 0 {
		t.Fatalf("confirmed read run: %s", run.Envelope)
	}

	iv.Audit = nil // a read needs no audit log
	asked := 0
	gates := func(context.Context, json.RawMessage) (GateAnswer, error) { asked++; return GateApproved, nil }
	as.Gates = gates
	if run := iv.InvokeRequest(ctx, TransportMCPStdio, []string{"run"}, req, as); !run.OK || asked != 1 ||
		!strings.Contains(string(run.Envelope), `"outputs":{"target":"x"}`) {
		t.Fatalf("gates answered by the client (asked %d): %s", asked, run.Envelope)
	}
	for _, r := range auditLines(t, home) {
		if r["decision"] == DecisionRun {
			t.Fatalf("a read run was logged: %v", r)
		}
	}
}
