package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/session"
	"github.com/relavium/relavium/workflow"
)

// RunWorkflow is `relavium run WORKFLOW [--input k=v]… [--events] [--json]
// [--yes] [--plan] [--plan-id X] [--sampling-reply TEXT|@FILE] [--root DIR]…`
// (the last two as on mcp call: how servers' sampling requests are answered
// and which roots they are offered). Everything authored is checked before
// anything is spawned: the workflow file (E600–E602), the inputs (E603), the
// servers it names (config E2xx), the plan id (E450) and whether its gates
// can be answered (E611). Then the servers are connected, the run goes
// through workflow.Run, and the servers are torn down before it returns.
func RunWorkflow(ctx context.Context, inv *cli.Invocation) (any, error) {
	return RunWorkflowWith(ctx, inv, cli.ConnectServers)
}

// ConnectFunc connects servers; RunWorkflow uses cli.ConnectServers, tests a
// fake host.
type ConnectFunc func(ctx context.Context, inv *cli.Invocation, servers []config.Server, em engine.Emitter) (cli.LiveHost, error)

// RunWorkflowWith is RunWorkflow connecting the servers through connect.
func RunWorkflowWith(ctx context.Context, inv *cli.Invocation, connect ConnectFunc) (any, error) {
	events := inv.Bool("events")
	if events && inv.Global.JSON {
		return nil, cli.UsageErr(cli.CodeBadFlag, "--events prints NDJSON events and --json one envelope on stdout: pass one of them")
	}
	if inv.Bool("plan") && inv.Changed("plan-id") {
		return nil, cli.UsageErr(cli.CodeBadFlag, "--plan prints the plan and --plan-id runs it: pass one of them")
	}
	// --sampling-reply and --root are checked now, as everything authored
	// is (E905, E903), though the session reads them only when it connects.
	if err := cli.ClientOptions(inv, &session.Options{}); err != nil {
		return nil, err
	}
	w, err := workflow.LoadWorkflow(inv.Global.Project, inv.Args[0])
	if err != nil {
		return nil, err
	}
	given, err := workflow.ParseInputArgs(w, inv.Strings("input"))
	if err != nil {
		return nil, err
	}
	// --plan shows the plan before the person has every input: a missing
	// required one is marked in it, not refused (the run refuses it).
	var inputs map[string]any
	var missing []string
	if inv.Bool("plan") {
		inputs, missing, err = w.ResolvePlanInputs(given)
	} else {
		inputs, err = w.ResolveInputs(given)
	}
	if err != nil {
		return nil, err
	}
	servers, err := workflowServers(inv, w)
	if err != nil {
		return nil, err
	}
	if inv.Bool("plan") || inv.Changed("plan-id") {
		plan, err := workflowPlan(inv, w, inputs, missing, servers)
		if err != nil {
			return nil, err
		}
		if inv.Bool("plan") {
			return plan, nil
		}
		if err := plan.Check(inv.String("plan-id")); err != nil {
			return nil, err
		}
	}
	yes := inv.Bool("yes")
	if gates := w.Gates(); len(gates) > 0 && !yes && !inv.CanPrompt() {
		return nil, workflow.GateUnanswerable(w, gates[0])
	}
	res, err := executeRun(ctx, inv, w, inputs, servers, events, yes, connect)
	if err != nil || events {
		return nil, err
	}
	return &runOutput{res}, nil
}

// executeRun connects the servers, runs, tears down, and drains the event
// printer; nothing it started outlives it.
func executeRun(ctx context.Context, inv *cli.Invocation, w *workflow.Workflow, inputs map[string]any,
	servers []config.Server, events, yes bool, connect ConnectFunc) (*workflow.RunResult, error) {
	bus := engine.NewBus(engine.BusOptions{Now: inv.Env.Now})
	var pr *cli.EventPrinter
	if events {
		pr = cli.StartNDJSONPrinter(bus, inv.Env.Stdout, inv.Env.Stderr)
	} else {
		pr = cli.StartHumanPrinter(bus, inv.Env.Stderr)
	}
	defer pr.Stop(bus)

	var live cli.LiveHost
	if hasToolSteps(w) {
		var err error
		if live, err = connect(ctx, inv, servers, bus); err != nil {
			return nil, err
		}
		// Runs before pr.stop (defers are LIFO): every server is torn down
		// before the handler returns, on every path.
		defer func() {
			if cerr := live.Close(); cerr != nil {
				pr.Note("tearing the servers down: " + sanitize.Line(cerr.Error()))
			}
		}()
	}
	gate := func(ctx context.Context, req workflow.GateRequest) (bool, error) {
		if yes {
			_ = pr.CatchUp(ctx, bus.Seq())
			pr.Note(fmt.Sprintf("gate %s: %s — approved by --yes", req.Step, sanitize.Line(req.Message)))
			return true, nil
		}
		if !inv.CanPrompt() {
			return false, workflow.GateUnanswerable(w, stepByID(w, req.Step))
		}
		if err := pr.CatchUp(ctx, bus.Seq()); err != nil {
			return false, err
		}
		pr.Mu.Lock() // the printer stays quiet while the person is asked
		defer pr.Mu.Unlock()
		return cli.AskGate(ctx, inv.Env.Stdin, inv.Env.Stderr, req)
	}
	opts := workflow.RunOptions{Emitter: bus, Gate: gate}
	if live != nil {
		opts.Host = live
	}
	return workflow.Run(ctx, w, inputs, opts)
}

func hasToolSteps(w *workflow.Workflow) bool {
	for i := range w.Steps {
		if w.Steps[i].Kind() == workflow.StepTool {
			return true
		}
	}
	return false
}

func stepByID(w *workflow.Workflow, id string) *workflow.Step {
	for i := range w.Steps {
		if w.Steps[i].ID == id {
			return &w.Steps[i]
		}
	}
	return &workflow.Step{ID: id}
}

// workflowServers resolves what a workflow connects: its mcp_servers refs
// through the config (an unknown ref or a widening allowlist is an authored
// error, exit 2); without mcp_servers, the --agent's servers or every
// registration; nothing for a workflow without tool steps.
func workflowServers(inv *cli.Invocation, w *workflow.Workflow) ([]config.Server, error) {
	if !hasToolSteps(w) {
		return nil, nil
	}
	cfg, err := inv.LoadConfig()
	if err != nil {
		return nil, err
	}
	for _, warn := range cfg.Warnings {
		fmt.Fprintf(inv.Env.Stderr, "relavium: warning: %s\n", warn.String())
	}
	if len(w.Servers) == 0 {
		return cfg.Declared(inv.Global.Agent)
	}
	refs := make([]config.Ref, len(w.Servers))
	for i, r := range w.Servers {
		refs[i] = config.Ref{Name: r.Ref, ToolsAllowlist: r.ToolsAllowlist,
			Pos: config.Pos{File: r.Pos.File, Line: r.Pos.Line, Col: r.Pos.Col}}
	}
	return cfg.ResolveRefs(refs)
}

// workflowPlan builds the plan: stdio servers with their v1 consent digest
// (resolved the way consent resolves them, nothing spawned), network
// servers with their url.
func workflowPlan(inv *cli.Invocation, w *workflow.Workflow, inputs map[string]any, missing []string, servers []config.Server) (*workflow.WorkflowPlan, error) {
	ps := make([]workflow.PlanServer, 0, len(servers))
	for _, s := range servers {
		p := workflow.PlanServer{Name: s.Name, Transport: s.Transport, ToolsAllowlist: s.ToolsAllowlist}
		if s.Transport == host.TransportStdio {
			r, err := consent.Resolve(session.Declaration(s, cli.Sandboxing(inv)), inv.Env.Getenv("PATH"))
			if err != nil {
				return nil, err
			}
			p.Digest, p.CommandLine = r.Digest, r.CommandLine()
		} else {
			p.URL = s.URL
		}
		ps = append(ps, p)
	}
	return workflow.PlanMissing(w, inputs, missing, ps)
}

// runOutput is a completed run as the terminal shows it: its outputs.
type runOutput struct{ *workflow.RunResult }

// WriteHuman prints each output; strings as they are, other values as JSON.
func (r *runOutput) WriteHuman(w io.Writer) error {
	var b strings.Builder
	names := make([]string, 0, len(r.Outputs))
	for k := range r.Outputs {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) == 0 {
		fmt.Fprintf(&b, "workflow %s completed (%d steps, %d ms)\n", r.Workflow, len(r.Steps), r.DurationMS)
	}
	for _, k := range names {
		v := r.Outputs[k]
		s, ok := v.(string)
		if !ok {
			bs, err := json.Marshal(v)
			if err != nil {
				return err
			}
			s = string(bs)
		}
		if len(names) == 1 {
			fmt.Fprintln(&b, sanitize.Text(s))
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", k, sanitize.Text(s))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RunWorkflowList is `relavium workflow ls`: every workflow of the project;
// a file with problems makes it exit 2 with every problem (the workflows
// that did load ride along in the error's data).
func RunWorkflowList(_ context.Context, inv *cli.Invocation) (any, error) {
	ws, err := workflow.LoadWorkflows(inv.Global.Project)
	list := &WorkflowList{Project: inv.Global.Project, Workflows: []WorkflowRow{}}
	for _, w := range ws {
		list.Workflows = append(list.Workflows, rowOf(w))
	}
	if err != nil {
		var pe *workflow.ProblemsError
		if errors.As(err, &pe) {
			pe.Data = map[string]any{"workflows": list.Workflows}
		}
		return nil, err
	}
	return list, nil
}

// WorkflowList is the data of `relavium workflow ls`.
type WorkflowList struct {
	Project   string        `json:"project"`
	Workflows []WorkflowRow `json:"workflows"`
}

// WorkflowRow is one workflow of the list.
type WorkflowRow struct {
	ID          string           `json:"id"`
	Description string           `json:"description"`
	Trigger     string           `json:"trigger"`
	SideEffect  string           `json:"side_effect"`
	Inputs      []workflow.Input `json:"inputs"`
	Servers     []string         `json:"servers"`
	Steps       int              `json:"steps"`
	Gates       int              `json:"gates"`
	File        string           `json:"file"`
}

func rowOf(w *workflow.Workflow) WorkflowRow {
	r := WorkflowRow{ID: w.ID, Description: w.Description, Trigger: w.Trigger, SideEffect: w.SideEffect,
		Inputs: w.Inputs, Servers: []string{}, Steps: len(w.Steps), Gates: len(w.Gates()), File: w.File}
	if r.Inputs == nil {
		r.Inputs = []workflow.Input{}
	}
	for _, s := range w.Servers {
		r.Servers = append(r.Servers, s.Ref)
	}
	return r
}

// WriteHuman prints one row per workflow, or says there is none.
func (l *WorkflowList) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if len(l.Workflows) == 0 {
		fmt.Fprintf(&b, "no workflows in %s\n", workflow.WorkflowDir(l.Project))
		_, err := io.WriteString(w, b.String())
		return err
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", "ID", "TRIGGER", "SIDE EFFECT", "INPUTS", "DESCRIPTION")
	for _, r := range l.Workflows {
		var in []string
		for _, i := range r.Inputs {
			s := i.Name + ":" + i.Type
			switch {
			case i.Required:
				s += "*"
			case i.HasDefault:
				d, _ := json.Marshal(i.Default)
				s += "=" + string(d)
			}
			in = append(in, s)
		}
		inputs := strings.Join(in, " ")
		if inputs == "" {
			inputs = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", sanitize.Line(r.ID), r.Trigger, r.SideEffect, sanitize.Line(inputs), sanitize.Line(r.Description))
	}
	_ = tw.Flush() // writes to a strings.Builder
	rel, err := filepath.Rel(l.Project, workflow.WorkflowDir(l.Project))
	if err != nil {
		rel = workflow.WorkflowDir(l.Project)
	}
	fmt.Fprintf(&b, "%d workflow(s) in %s · * required · run one with: relavium run ID --input k=v\n", len(l.Workflows), rel)
	_, err = io.WriteString(w, b.String())
	return err
}

// WorkflowSideEffect is the run row's SideEffectFor column: `run WORKFLOW`
// takes the workflow's declared side effect.
func WorkflowSideEffect(projectDir string, args []string) (cli.SideEffect, error) {
	if len(args) == 0 {
		return cli.Write, nil // the arg count check refuses it before anything runs
	}
	w, err := workflow.LoadWorkflow(projectDir, args[0])
	if err != nil {
		return "", err
	}
	return cli.SideEffect(w.SideEffect), nil
}
