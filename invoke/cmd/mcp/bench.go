package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/direct"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/loadtest"
)

// `relavium mcp bench`: load and latency for one tool (or one list, read or
// prompt) of a declared or ad-hoc server. The schedule, the figures and the
// charts are loadtest's; this file connects, builds the request a run
// sends, classifies each answer, and applies --save, --baseline and the
// thresholds.

// Bench methods: what one request of a run is.
const (
	benchCall   = "tools/call"
	benchList   = "tools/list"
	benchRead   = "resources/read"
	benchPrompt = "prompts/get"
)

// MCPBench is the data of `relavium mcp bench`: the run's report, the
// comparison with --baseline, and the thresholds that failed.
type MCPBench struct {
	*loadtest.Report
	Against  *loadtest.Comparison `json:"against,omitempty"`
	Failures []loadtest.Failure   `json:"threshold_failures,omitempty"`
	rich     bool                 // stdout is a terminal: the time chart in braille
	width    int
}

// WriteHuman draws the report, then the comparison and the thresholds.
func (b *MCPBench) WriteHuman(w io.Writer) error {
	if err := b.Report.Draw(w, loadtest.Render{Rich: b.rich, Width: b.width}); err != nil {
		return err
	}
	if b.Against != nil {
		io.WriteString(w, "\n")
		if err := b.Against.WriteHuman(w); err != nil {
			return err
		}
	}
	for _, f := range b.Failures {
		if _, err := fmt.Fprintf(w, "✗ threshold %s\n", f); err != nil {
			return err
		}
	}
	return nil
}

// benchFailed is a run that ended but missed a threshold (or answered
// nothing): exit 1 with the whole report as data, drawn in human form.
type benchFailed struct {
	fault.Base
	out *MCPBench
}

func (e *benchFailed) WriteHuman(w io.Writer) error {
	if err := e.out.WriteHuman(w); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "relavium: %s: %s\n", e.ErrCode, e.Msg)
	return err
}

// RunMCPBench is `relavium mcp bench`: load a tool (or a list, read or
// prompt) at a constant rate; latency percentiles, errors by code, charts;
// thresholds for CI.
func RunMCPBench(ctx context.Context, inv *cli.Invocation) (any, error) {
	plan, th, err := benchPlan(inv)
	if err != nil {
		return nil, err
	}
	method := inv.String("method")
	var base *loadtest.Report
	if f := inv.String("baseline"); f != "" {
		if base, err = loadtest.LoadBaseline(f); err != nil {
			return nil, err
		}
	}
	var sets []json.RawMessage
	if f := inv.String("args-file"); f != "" {
		if inv.Changed("args") || len(inv.Args) > 1 {
			return nil, cli.UsageErr(cli.CodeBadCallArgs, "give the arguments as --args-file, --args or KEY=VALUE words, one of them")
		}
		if sets, err = loadtest.ReadArgsFile(f); err != nil {
			return nil, err
		}
	}
	argText, kv, err := benchArgs(inv, method)
	if err != nil {
		return nil, err
	}
	servers, adhoc, err := Targets(inv)
	if err != nil {
		return nil, err
	}
	co := cli.ConnectOptions{}
	name := ""
	if len(inv.Args) > 0 {
		name = inv.Args[0]
	}
	switch {
	case method == benchCall && !adhoc:
		if co.Only, err = serversOffering(name, servers); err != nil {
			return nil, err
		}
	case method != benchCall && !adhoc:
		server := inv.String("server")
		if server == "" {
			return nil, cli.UsageErr(cli.CodeBadFlag, "--method %s needs --server NAME (or an ad-hoc --url/--stdio)", method)
		}
		if _, err = onlyServer(servers, server); err != nil {
			return nil, err
		}
		// Only that server connects; every declared stdio server is still
		// decided, so each --allow-mcp-stdio digest is checked as usual.
		co.Only = func(name string) bool { return name == server }
	}

	// One connection a --connections: requests are spread over them round
	// robin, as several clients of the same server would be.
	conns := max(inv.Int("connections"), 1)
	if conns > loadtest.MaxClosed {
		return nil, benchUsage(loadtest.CodeBadPlan, "--connections must be 1 to %d", loadtest.MaxClosed)
	}
	hosts := make([]*host.Host, 0, conns)
	defer func() {
		for _, h := range hosts {
			h.Close()
		}
	}()
	for range conns {
		h, err := cli.ConnectWith(ctx, inv, servers, nil, co)
		if err != nil {
			return nil, err
		}
		hosts = append(hosts, h)
	}

	bt, err := benchTarget(ctx, inv, hosts, method, name, adhoc, servers, argText, kv, sets, plan.Timeout)
	if err != nil {
		return nil, err
	}
	label, server := bt.label, bt.server
	var progress io.Writer
	if inv.Env.StderrTTY && !inv.Global.JSON {
		progress = inv.Env.Stderr
	}
	var rep *loadtest.Report
	if benchPipelined(hosts, server) {
		rep, err = loadtest.RunPipes(ctx, plan, bt.pipes(hosts, method), loadtest.Options{Progress: progress})
	} else {
		rep, err = loadtest.Run(ctx, plan, bt.target, loadtest.Options{Progress: progress})
	}
	if err != nil {
		return nil, err
	}
	rep.Target, rep.Server = label, server
	if conns > 1 {
		rep.Connections = conns
	}
	out := &MCPBench{Report: rep, rich: inv.Env.StdoutTTY && !inv.Global.JSON}
	if f := inv.String("save"); f != "" {
		if err := rep.Save(f); err != nil {
			return nil, err
		}
	}
	if base != nil {
		out.Against = loadtest.Compare(rep, base, inv.String("baseline"))
	}
	out.Failures = th.Check(rep)
	switch {
	case len(out.Failures) > 0:
		msg := fmt.Sprintf("%d threshold(s) failed:", len(out.Failures))
		for _, f := range out.Failures {
			msg += " " + f.String() + ";"
		}
		return nil, &benchFailed{Base: fault.Base{ErrCode: loadtest.CodeThreshold, Exit: cli.ExitFailure, Msg: msg[:len(msg)-1], Data: out}, out: out}
	case rep.Count > 0 && rep.ErrorCount == rep.Count:
		return nil, &benchFailed{Base: fault.Base{ErrCode: loadtest.CodeNothingAnswered, Exit: cli.ExitFailure,
			Msg: fmt.Sprintf("none of %d requests was answered successfully", rep.Count), Data: out}, out: out}
	}
	return out, nil
}

// benchPlan reads the schedule and the thresholds from the flags.
func benchPlan(inv *cli.Invocation) (loadtest.Plan, loadtest.Thresholds, error) {
	plan := loadtest.Plan{
		Duration: inv.Duration("duration"),
		Warmup:   inv.Duration("warmup"),
		Closed:   inv.Int("closed"),
		Timeout:  inv.Duration("timeout"),
	}
	th := loadtest.NoThresholds
	if inv.Changed("closed") && plan.Closed < 1 {
		return plan, th, benchUsage(loadtest.CodeBadPlan, "--closed must be 1 to %d callers", loadtest.MaxClosed)
	}
	if plan.Closed > 0 && inv.Changed("rate") {
		return plan, th, benchUsage(loadtest.CodeBadPlan, "--rate sets an open loop and --closed a closed one: give one")
	}
	if plan.Open() {
		r, err := loadtest.ParseRate(inv.String("rate"))
		if err != nil {
			return plan, th, err
		}
		plan.Rate = r
	}
	if err := plan.Check(); err != nil {
		return plan, th, err
	}
	if s := inv.String("max-p99"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return plan, th, benchUsage(loadtest.CodeBadThreshold, "--max-p99 takes a duration such as 150ms, got %q", s)
		}
		th.MaxP99 = d
	}
	if s := inv.String("max-error-rate"); s != "" {
		v, err := loadtest.ParsePercent("--max-error-rate", s)
		if err != nil {
			return plan, th, err
		}
		th.MaxErrorRate = v
	}
	if s := inv.String("min-rate"); s != "" {
		if !plan.Open() {
			return plan, th, benchUsage(loadtest.CodeBadThreshold, "--min-rate is a share of the asked --rate: a closed loop asks none")
		}
		v, err := loadtest.ParsePercent("--min-rate", s)
		if err != nil {
			return plan, th, err
		}
		th.MinRate = v
	}
	return plan, th, nil
}

// benchUsage is a refusal of loadtest's codes (exit 2, nothing started).
func benchUsage(code fault.Code, format string, a ...any) error {
	return &fault.Error{ErrCode: code, Exit: cli.ExitUsage, Msg: fmt.Sprintf(format, a...)}
}

// benchArgs checks the positional arguments against the method: a tool
// and its KEY=VALUE arguments, a resource's uri, a prompt and its
// arguments, or nothing for tools/list.
func benchArgs(inv *cli.Invocation, method string) (string, []string, error) {
	switch method {
	case benchList:
		if len(inv.Args) > 0 || inv.Changed("args") {
			return "", nil, cli.UsageErr(cli.CodeBadArgs, "--method tools/list takes no TOOL or arguments")
		}
		return "", nil, nil
	case benchRead:
		if len(inv.Args) != 1 || inv.Changed("args") {
			return "", nil, cli.UsageErr(cli.CodeBadArgs, "--method resources/read takes the resource's URI and nothing else")
		}
		return "", nil, nil
	}
	if len(inv.Args) == 0 {
		return "", nil, cli.UsageErr(cli.CodeBadArgs, "give the %s to load: relavium mcp bench NAME [KEY=VALUE…]", map[string]string{benchCall: "tool", benchPrompt: "prompt"}[method])
	}
	return callArgs(inv)
}

// benchTarget builds the request a run sends: on connection i mod n, the
// tool call (arguments set i mod m of --args-file), the list, the read or
// the prompt. It returns the target's label and server for the report.
func benchTarget(ctx context.Context, inv *cli.Invocation, hosts []*host.Host, method, name string, adhoc bool,
	servers []config.Server, argText string, kv []string, sets []json.RawMessage, timeout time.Duration) (*benchRequest, error) {
	pick := func(i int) *host.Host { return hosts[i%len(hosts)] }
	switch method {
	case benchCall:
		def, err := findTool(hosts[0], name, adhoc, servers)
		if err != nil {
			return nil, err
		}
		if sets == nil {
			args, err := BuildArgs(argText, kv, def)
			if err != nil {
				return nil, err
			}
			sets = []json.RawMessage{args}
		}
		for n, args := range sets {
			// Every argument set is checked before the first request: a
			// run of refusals measures nothing.
			if err := hosts[0].Validate(def.ID, args); err != nil {
				if len(sets) > 1 {
					return nil, &fault.Error{ErrCode: loadtest.CodeArgsFile, Exit: cli.ExitUsage, Cause: err,
						Msg: fmt.Sprintf("--args-file argument set %d: %s", n+1, fault.MessageOf(err))}
				}
				return nil, err
			}
		}
		fmt.Fprintf(inv.Env.Stderr, "mcp bench: %s will be called %s\n", sanitize.Line(def.Name), benchVolume(inv))
		if err := cli.ConfirmCall(ctx, inv, nil, nil, def, servers, adhoc); err != nil {
			return nil, err
		}
		return &benchRequest{label: def.Name, server: def.Server, tool: def.ID, sets: sets,
			target: func(ctx context.Context, i int) loadtest.Outcome {
				res, err := pick(i).Call(ctx, def.ID, sets[i%len(sets)], engine.CallOptions{Timeout: timeout})
				return loadtest.Outcome{Error: failure.OutcomeKey(res, err)}
			}}, nil
	case benchList:
		server := benchServer(hosts[0])
		return &benchRequest{label: benchList, server: server, params: []json.RawMessage{json.RawMessage(`{}`)},
			target: func(ctx context.Context, i int) loadtest.Outcome {
				_, err := pick(i).ListTools(ctx, server)
				return loadtest.Outcome{Error: failure.OutcomeKey(nil, err)}
			}}, nil
	case benchRead:
		server := benchServer(hosts[0])
		p, _ := json.Marshal(map[string]string{"uri": name})
		return &benchRequest{label: benchRead + " " + name, server: server, params: []json.RawMessage{p},
			target: func(ctx context.Context, i int) loadtest.Outcome {
				_, err := pick(i).ReadResource(ctx, server, name)
				return loadtest.Outcome{Error: failure.OutcomeKey(nil, err)}
			}}, nil
	default: // prompts/get
		server := benchServer(hosts[0])
		args := map[string]string{}
		for _, w := range kv {
			k, v, ok := strings.Cut(w, "=")
			if !ok {
				return nil, cli.UsageErr(cli.CodeBadCallArgs, "argument %q is not KEY=VALUE", w)
			}
			args[k] = v
		}
		p, _ := json.Marshal(map[string]any{"name": name, "arguments": args})
		return &benchRequest{label: benchPrompt + " " + name, server: server, params: []json.RawMessage{p},
			target: func(ctx context.Context, i int) loadtest.Outcome {
				_, err := pick(i).GetPrompt(ctx, server, name, args)
				return loadtest.Outcome{Error: failure.OutcomeKey(nil, err)}
			}}, nil
	}
}

// benchRequest is what a run sends: through the SDK one request at a time
// (target), or pipelined on a stdio connection as method with params
// (host.LoadPipe, host/direct: the client stays out of its own measurement).
type benchRequest struct {
	label, server string
	target        loadtest.Target
	tool          engine.ToolID     // tools/call: the tool, called with sets
	sets          []json.RawMessage // its argument sets, request i takes i mod n
	params        []json.RawMessage // any other method's params
}

// pipes opens one load pipe a connection.
func (b *benchRequest) pipes(hosts []*host.Host, method string) loadtest.OpenPipes {
	return func(answer loadtest.Answer) ([]loadtest.Pipe, error) {
		report := func(i int, key string) { answer(i, loadtest.Outcome{Error: key}) }
		out := make([]loadtest.Pipe, 0, len(hosts))
		for _, h := range hosts {
			var p *direct.LoadPipe
			var err error
			if b.tool != "" {
				p, err = h.LoadToolPipe(b.tool, b.sets, report)
			} else {
				p, err = h.LoadPipe(b.server, method, b.params, report)
			}
			if err != nil {
				for _, o := range out {
					o.Close()
				}
				return nil, err
			}
			out = append(out, p)
		}
		return out, nil
	}
}

// benchPipelined reports whether every connection to server can carry a
// load pipe (stdio).
func benchPipelined(hosts []*host.Host, server string) bool {
	for _, h := range hosts {
		if !h.Pipelined(server) {
			return false
		}
	}
	return true
}

// benchServer is the one server a list, read or prompt run loads: the
// ad-hoc one, or the --server that alone was connected.
func benchServer(h *host.Host) string {
	for _, st := range h.Servers() {
		if h.Has(st.Name) && !h.Failed(st.Name) {
			return st.Name
		}
	}
	return ""
}

// benchVolume says how many calls a run will make, for the confirmation.
func benchVolume(inv *cli.Invocation) string {
	d := inv.Duration("warmup") + inv.Duration("duration")
	if n := inv.Int("closed"); n > 0 {
		return fmt.Sprintf("by %d callers, back to back, for %s", n, d)
	}
	r, _ := loadtest.ParseRate(inv.String("rate"))
	return fmt.Sprintf("about %.0f times (%g/s for %s)", r*d.Seconds(), r, d)
}
