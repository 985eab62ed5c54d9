package machine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/workflow"
)

// WorkflowToolName is the MCP tool name of an mcp_call workflow.
func WorkflowToolName(id string) string { return workflowToolPrefix + id }

// gateKeyPrefix names the elicitation input request of one gate step.
const gateKeyPrefix = "gate:"

// workflowTool describes an mcp_call workflow as an MCP tool: inputSchema
// from inputs[] plus the optional confirm member.
func workflowTool(w *workflow.Workflow) (*mcp.Tool, error) {
	var schema map[string]any
	if err := json.Unmarshal(w.InputSchema(), &schema); err != nil {
		return nil, fmt.Errorf("workflow %s: input schema: %w", w.ID, err)
	}
	props, _ := schema["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		schema["properties"] = props
	}
	props[workflow.ReservedInputName] = map[string]any{"type": "string", "pattern": confirmPattern,
		"description": "the confirm value of a confirmation this server returned for the identical call in this session (not the plan id; good once, for 10 minutes)"}
	se := cli.SideEffect(w.SideEffect)
	desc := w.Description
	if desc == "" {
		desc = "Run workflow " + w.ID
	}
	desc += fmt.Sprintf(". Runs `relavium run %s` (side effect: %s), blocks until it completes and returns its outputs.", w.ID, se)
	if len(w.Gates()) > 0 {
		desc += " Its gates are put to you as elicitation requests; declining cancels the run."
	}
	if se == cli.Remote || se == cli.Destructive {
		desc += " The first call returns data.confirmation_required with the plan: review it, then call again in the same session with \"confirm\" set to its confirm value (good once, for 10 minutes)."
	}
	return &mcp.Tool{
		Name:        WorkflowToolName(w.ID),
		Title:       "workflow " + w.ID,
		Description: desc,
		InputSchema: schema,
		Annotations: annotationsFor("workflow "+w.ID, se),
	}, nil
}

// addWorkflowTools publishes every workflow whose trigger is mcp_call. A
// workflow file with an authored mistake refuses the start (E600, exit 2).
func addWorkflowTools(s *mcp.Server, iv *Invoker, transport Transport) ([]string, error) {
	wfs, err := workflow.LoadWorkflows(iv.Project)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, w := range wfs {
		if w.Trigger != workflow.TriggerMCPCall {
			continue
		}
		tool, err := workflowTool(w)
		if err != nil {
			return nil, err
		}
		id := w.ID
		s.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return callWorkflow(ctx, iv, transport, id, req), nil
		})
		names = append(names, tool.Name)
	}
	return names, nil
}

// callWorkflow runs relavium_{id}: the arguments become `run <id> --input
// k=v…` through the same invoker and gate. Gates are answered by the client
// through elicitation when it can (a decline cancels the run before
// anything starts); otherwise they come back as a kind plan confirmation.
func callWorkflow(ctx context.Context, iv *Invoker, transport Transport, id string, req *mcp.CallToolRequest) *mcp.CallToolResult {
	path := []string{"run"}
	w, err := workflow.LoadWorkflow(iv.Project, id)
	if err != nil {
		return toolResult(iv.Refuse(transport, path, &Request{Args: []string{id}}, err))
	}
	if w.Trigger != workflow.TriggerMCPCall {
		return toolResult(iv.Refuse(transport, path, &Request{Args: []string{id}},
			&cli.Error{ErrCode: cli.CodeNotExposed, Msg: fmt.Sprintf("workflow %s is no longer published (its trigger is %s); restart the server", id, w.Trigger)}))
	}
	rq, err := workflowRequest(w, req.Params.Arguments)
	if err != nil {
		return toolResult(iv.Refuse(transport, path, &Request{Args: []string{id}}, err))
	}
	opts := Options{Session: sessionBinding(ctx), Tool: WorkflowToolName(id)}
	var ask mcp.InputRequestMap
	if caps := req.ClientCapabilities(); caps != nil && caps.Elicitation != nil {
		opts.Gates = func(ctx context.Context, plan json.RawMessage) (GateAnswer, error) {
			ans, pending := answerGates(w, planInputs(plan), req.Params.InputResponses)
			ask = pending
			return ans, nil
		}
	}
	res := iv.InvokeRequest(ctx, transport, path, rq, opts)
	if res.Pending {
		return &mcp.CallToolResult{InputRequests: ask}
	}
	return toolResult(res)
}

// answerGates reads the client's answers to a workflow's gates: approved
// when every gate was accepted with approve=true, declined when any was
// declined, cancelled or not approved, pending (with the requests to send)
// while some are unanswered.
func answerGates(w *workflow.Workflow, inputs map[string]any, responses mcp.InputResponseMap) (GateAnswer, mcp.InputRequestMap) {
	gates := w.Gates()
	if len(gates) == 0 {
		return GateApproved, nil
	}
	ask := mcp.InputRequestMap{}
	for _, g := range gates {
		key := gateKeyPrefix + g.ID
		resp, ok := responses[key]
		if !ok {
			ask[key] = gateElicitation(w, g, inputs)
			continue
		}
		er, ok := resp.(*mcp.ElicitResult)
		if !ok || er.Action != "accept" {
			return GateDeclined, nil
		}
		if approve, _ := er.Content["approve"].(bool); !approve {
			return GateDeclined, nil
		}
	}
	if len(ask) > 0 {
		return GatePending, ask
	}
	return GateApproved, nil
}

// planInputs reads the resolved inputs (defaults applied) out of the plan
// the gate is asked for; nil when the plan holds none.
func planInputs(plan json.RawMessage) map[string]any {
	var p struct {
		Inputs map[string]any `json:"inputs"`
	}
	dec := json.NewDecoder(bytes.NewReader(plan))
	dec.UseNumber() // numbers as the plan spells them
	if dec.Decode(&p) != nil {
		return nil
	}
	return p.Inputs
}

// gateElicitation asks one gate before the run: the message is filled in
// with the run's inputs; what only an earlier step can say stays as written.
func gateElicitation(w *workflow.Workflow, g *workflow.Step, inputs map[string]any) *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Mode: "form",
		Message: fmt.Sprintf("Workflow %s (side effect %s) asks at step %q: %s\nApprove to let the run go on; decline to cancel it.",
			w.ID, w.SideEffect, g.ID, g.GatePreview(inputs)),
		RequestedSchema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"approve": {Type: "boolean", Title: "Approve", Description: "true lets the run go on"},
			},
			Required: []string{"approve"},
		},
	}
}

// workflowRequest turns a workflow tool's arguments into the machine request
// for `run <id>`: strict JSON (no repeated or unknown member), each input as
// one --input name=value (strings as written, numbers and booleans as JSON
// text, arrays and objects as compact JSON), confirm passed through.
func workflowRequest(w *workflow.Workflow, raw json.RawMessage) (*Request, error) {
	rq := &Request{Args: []string{w.ID}}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return rq, nil
	}
	if len(trimmed) > MaxRequestBytes {
		return nil, badRequest("the arguments are larger than %d bytes", MaxRequestBytes)
	}
	if err := requestNesting("the arguments", trimmed); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if err := expectDelim(dec, '{', "the arguments must be a JSON object"); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var inputs []string
	for dec.More() {
		name, err := memberName(dec, "arguments")
		if err != nil {
			return nil, err
		}
		if seen[name] {
			return nil, badRequest("member %s appears twice", quoteName(name))
		}
		seen[name] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, badRequest("member %s does not parse as JSON", quoteName(name))
		}
		if name == workflow.ReservedInputName {
			var s string
			if json.Unmarshal(v, &s) != nil || !isConfirmValue(s) {
				return nil, badRequest("confirm must be 64 lowercase hex characters")
			}
			rq.Confirm = s
			continue
		}
		if w.Input(name) == nil {
			return nil, badRequest("workflow %s has no input %s", w.ID, quoteName(name))
		}
		text, err := inputText(v)
		if err != nil {
			return nil, badRequest("input %s: %v", quoteName(name), err)
		}
		inputs = append(inputs, name+"="+text)
	}
	if err := expectDelim(dec, '}', "the arguments object is not closed"); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, badRequest("the arguments have data after their JSON object")
	}
	if len(inputs) > 0 {
		sort.Strings(inputs)
		rq.Flags = map[string]FlagValue{"input": {Kind: KindList, List: inputs}}
	}
	return rq, nil
}

// inputText renders one input value as the text after name= (the child
// parses it by the input's declared type).
func inputText(v json.RawMessage) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return "", errors.New("does not parse")
	}
	switch t := x.(type) {
	case nil:
		return "", errors.New("null is not a value; leave the input out for its default")
	case string:
		return t, nil
	case json.Number:
		s, ok := canonNumber(t)
		if !ok {
			return "", errors.New("not a finite number")
		}
		return s, nil
	case bool:
		if t {
			return "true", nil
		}
		return "false", nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, v); err != nil {
		return "", errors.New("does not parse")
	}
	return strings.TrimSpace(buf.String()), nil
}

// Refuse returns an audited invoker refusal for a request that never reached
// the gate (the workflow tools' own argument errors).
func (iv *Invoker) Refuse(transport Transport, path []string, req *Request, err error) Result {
	c := &call{iv: iv, transport: transport, start: iv.now(), path: strings.Join(path, " "), req: req}
	c.cmd = iv.Table.Lookup(path)
	c.side = cli.Destructive
	if c.cmd != nil {
		v, _ := Exposure(c.cmd, req, transport, iv.Project)
		if v.SideEffect != "" {
			c.side = v.SideEffect
		}
	}
	c.id = RequestID(c.path, c.cmd, req)
	return c.refuse(err)
}
