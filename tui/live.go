package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/workflow"
)

// live is the Backend over the real packages: invoke.Session (the connect
// path every command takes, with one consent Decider for the session),
// one host per server (so each connects, fails, reconnects and closes on
// its own), the engine's registry and runner, and one event bus.
type live struct {
	sess   *invoke.Session
	inv    *invoke.Invocation
	info   SessionInfo
	bus    *engine.Bus
	ctx    context.Context
	cancel context.CancelFunc

	mu         sync.Mutex
	el         engine.Elicitor
	hosts      map[string]*host.Host
	connecting map[string]context.CancelFunc
	closed     bool
	wg         sync.WaitGroup
}

func newLive(ctx context.Context, inv *invoke.Invocation, sess *invoke.Session, info SessionInfo) *live {
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	l := &live{sess: sess, inv: inv, info: info, bus: engine.NewBus(engine.BusOptions{Now: inv.Env.Now}),
		ctx: lctx, cancel: cancel, hosts: map[string]*host.Host{}, connecting: map[string]context.CancelFunc{}}
	return l
}

// setElicitor installs the model's elicitor before anything connects.
func (l *live) setElicitor(el engine.Elicitor) {
	l.mu.Lock()
	l.el = el
	l.mu.Unlock()
}

func (l *live) Info() SessionInfo { return l.info }

func (l *live) Declared() []ServerSpec {
	var out []ServerSpec
	for _, s := range l.sess.Servers() {
		out = append(out, ServerSpec{Name: s.Name, Transport: s.Transport, Target: target(s)})
	}
	return out
}

// target is what a declaration points at, for display.
func target(s config.Server) string {
	if s.Transport == host.TransportStdio {
		return consent.Display(s.Command) + " " + strings.Join(quoteAll(s.Args), " ")
	}
	if i := strings.IndexAny(s.URL, "?#"); i >= 0 {
		return s.URL[:i] // never show a query (it may carry a token)
	}
	return s.URL
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = consent.Display(a)
	}
	return out
}

func (l *live) Subscribe() *engine.Subscription { return l.bus.Subscribe() }

func (l *live) emitServer(d engine.ServerData) {
	l.bus.Emit(engine.Event{Type: engine.EventServer, Data: d})
}

func (l *live) Decide(ctx context.Context) ([]consent.Decision, error) {
	// Every row starts as resolving (the model's initial state), and the
	// connect that follows consent announces resolving itself: no event here.
	ds, failed, err := l.sess.Decide()
	if err != nil {
		return nil, err
	}
	for _, s := range l.sess.Servers() {
		if ferr, ok := failed[s.Name]; ok {
			l.emitServer(engine.ServerData{Server: s.Name, State: engine.StateFailed, Transport: s.Transport,
				ErrorCode: invoke.CodeOf(ferr), Error: sanitize.Text(messageOf(ferr))})
		}
	}
	for _, d := range ds {
		if d.State == consent.NeedsConsent && !l.isConnected(d.Server.Name) {
			l.emitServer(engine.ServerData{Server: d.Server.Name, State: engine.StateNeedsConsent, Transport: host.TransportStdio, Digest: d.Server.Digest})
		}
	}
	return ds, nil
}

// messageOf is an error's message without its code prefix.
func messageOf(err error) string {
	var m interface{ Message() string }
	if errors.As(err, &m) {
		return m.Message()
	}
	return err.Error()
}

func (l *live) isConnected(name string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.hosts[name]
	return ok
}

func (l *live) Answer(server string, a Answer) error {
	r, err := l.sess.Resolved(server)
	if err != nil {
		return err
	}
	d := l.sess.Decider()
	switch a {
	case ApproveRemember:
		return d.Remember(r)
	case ApproveOnce:
		d.ApproveOnce(r.Digest)
	case DenyConsent:
		d.Deny(r.Digest)
		l.emitServer(engine.ServerData{Server: server, State: engine.StateFailed, Transport: host.TransportStdio, Digest: r.Digest,
			ErrorCode: consent.CodeDenied, Error: "consent denied"})
	}
	return nil
}

func (l *live) Reask(server string) error {
	r, err := l.sess.Resolved(server)
	if err != nil {
		return err
	}
	l.sess.Decider().Reask(r.Digest)
	return nil
}

func (l *live) declared(name string) bool {
	for _, s := range l.sess.Servers() {
		if s.Name == name {
			return true
		}
	}
	return false
}

func (l *live) Connect(ctx context.Context, server string) error {
	if !l.declared(server) {
		return &Error{ErrCode: CodeUnknownServer, Msg: fmt.Sprintf("no server %q is declared in this session", server)}
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return &Error{ErrCode: CodeSessionClosed, Msg: "the session is closing"}
	}
	if _, ok := l.hosts[server]; ok {
		l.mu.Unlock()
		return nil
	}
	if _, ok := l.connecting[server]; ok {
		l.mu.Unlock()
		return nil
	}
	cctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(l.ctx, cancel)
	l.connecting[server] = cancel
	el := l.el
	l.wg.Add(1)
	l.mu.Unlock()
	defer l.wg.Done()
	defer stop()
	defer cancel()

	h, err := l.sess.Connect(cctx, server, l.bus, el)

	l.mu.Lock()
	delete(l.connecting, server)
	keep := err == nil && !l.closed && cctx.Err() == nil
	if keep {
		l.hosts[server] = h
	}
	l.mu.Unlock()
	if err == nil && !keep {
		_ = h.Close() // disconnected or closing meanwhile
		return &Error{ErrCode: CodeSessionClosed, Msg: "the connect of " + server + " was called off"}
	}
	return err
}

func (l *live) Disconnect(server string) error {
	l.mu.Lock()
	if cancel, ok := l.connecting[server]; ok {
		cancel()
	}
	h := l.hosts[server]
	delete(l.hosts, server)
	l.mu.Unlock()
	if h == nil {
		return nil
	}
	return h.Close()
}

// Catalogue lists every connected server's tools in declaration order.
// Tool ids are made unique across the per-server hosts (see hostSet).
func (l *live) Catalogue() ([]engine.ToolDef, []engine.SkippedTool) {
	hs := hostSet{l}
	return hs.Tools(), hs.Skipped()
}

func (l *live) Validate(id engine.ToolID, args json.RawMessage) error {
	h, inner, err := hostSet{l}.route(id)
	if err != nil {
		return err
	}
	return h.Validate(inner, args)
}

// Call calls through engine.Trace over the session's hosts: the one place
// a tool call becomes events (agent:tool_call with the arguments sanitized
// for display, agent:tool_progress, agent:tool_result), under callID.
func (l *live) Call(ctx context.Context, callID string, tool engine.ToolDef, args json.RawMessage) (*engine.ToolResult, error) {
	res, _, err := engine.Trace(ctx, hostSet{l}, l.bus, engine.TracedCall{CallID: callID, Tool: tool, Args: args})
	return res, err
}

func (l *live) Clearance(tool engine.ToolDef) (consent.Clearance, error) {
	return l.sess.Clearance(tool)
}

func (l *live) Approve(tool engine.ToolDef) error { return l.sess.Approve(tool) }

func (l *live) Changes(id engine.ToolID) ([]discovery.FieldChange, error) {
	h, inner, err := hostSet{l}.route(id)
	if err != nil {
		return nil, err
	}
	changes, _ := h.Changes(inner)
	return changes, nil
}

func (l *live) Accept(id engine.ToolID) error {
	h, inner, err := hostSet{l}.route(id)
	if err != nil {
		return err
	}
	_, err = h.Accept([]engine.ToolID{inner})
	return err
}

func (l *live) hostOf(server string) (*host.Host, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h, ok := l.hosts[server]
	if !ok {
		return nil, &Error{ErrCode: CodeNotConnected, Msg: "server " + server + " is not connected (r connects it)"}
	}
	return h, nil
}

func (l *live) Resources(ctx context.Context, server string) (*host.ResourceList, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.Resources(ctx, server)
}

func (l *live) ReadResource(ctx context.Context, server, uri string) ([]engine.Content, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.ReadResource(ctx, server, uri)
}

func (l *live) Prompts(ctx context.Context, server string) ([]host.Prompt, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.Prompts(ctx, server)
}

func (l *live) GetPrompt(ctx context.Context, server, name string, args map[string]string) (*host.PromptResult, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.GetPrompt(ctx, server, name, args)
}

func (l *live) Workflows() ([]*workflow.Workflow, error) {
	return workflow.LoadWorkflows(l.inv.Global.Project)
}

// RunWorkflow runs wf on the servers this session connected: each server it
// names must be connected (its tools are found by name through the
// registry, like `relavium run`).
func (l *live) RunWorkflow(ctx context.Context, runID string, wf *workflow.Workflow, inputs map[string]any, gate workflow.GateFunc) (*workflow.RunResult, error) {
	var missing []string
	for _, ref := range wf.Servers {
		if !l.isConnected(ref.Ref) {
			missing = append(missing, ref.Ref)
		}
	}
	if len(missing) > 0 {
		return nil, &Error{ErrCode: CodeWorkflowServers, Msg: fmt.Sprintf("workflow %s needs %s, not connected in this session (relavium run %s connects its own)",
			wf.ID, strings.Join(missing, ", "), wf.ID)}
	}
	return workflow.Run(ctx, wf, inputs, workflow.RunOptions{Host: hostSet{l}, Emitter: l.bus, Gate: gate, RunID: runID})
}

// Close cancels every connect, closes every host (each reaps its
// children) and ends the event stream.
func (l *live) Close() error {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.cancel()
	l.wg.Wait()
	l.mu.Lock()
	hosts := l.hosts
	l.hosts = map[string]*host.Host{}
	l.mu.Unlock()
	var wg sync.WaitGroup
	errs := make([]error, 0, len(hosts))
	var emu sync.Mutex
	for _, h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := h.Close(); err != nil {
				emu.Lock()
				errs = append(errs, err)
				emu.Unlock()
			}
		}()
	}
	wg.Wait()
	l.bus.Close()
	return errors.Join(errs...)
}
