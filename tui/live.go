package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/session"
	"github.com/relavium/relavium/workflow"
)

// live is the Backend over the real packages: the session core's Live
// (resolution and one consent Decider for the session, one host whose
// server set changes as servers connect, fail, reconnect and close), the
// engine's runner, and one event bus.
type live struct {
	core    *session.Session
	project string
	now     func() time.Time
	info    SessionInfo
	bus     *engine.Bus
	ctx     context.Context
	cancel  context.CancelFunc
	getenv  func(string) string // the face's environment ($BROWSER)
	// failed are the servers of client files that were not admitted:
	// listed after the declared ones, never connected.
	failed []config.FailedServer

	mu         sync.Mutex
	el         engine.Elicitor
	lv         *session.Live
	connecting map[string]bool
	closed     bool
	wg         sync.WaitGroup
}

func newLive(ctx context.Context, wb session.Workbench, info SessionInfo) *live {
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	return &live{core: wb.Session, project: wb.Project, now: wb.Now, info: info, bus: engine.NewBus(engine.BusOptions{Now: wb.Now}),
		ctx: lctx, cancel: cancel, connecting: map[string]bool{}, getenv: wb.Getenv, failed: wb.Failed}
}

// setElicitor installs the model's elicitor before anything connects.
func (l *live) setElicitor(el engine.Elicitor) {
	l.mu.Lock()
	l.el = el
	l.mu.Unlock()
}

// host is the session's one host, opened on the first connect (with the
// model's elicitor, installed by then); nil before it and after Close.
func (l *live) host() *host.Host {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lv == nil {
		return nil
	}
	return l.lv.Host()
}

// open is the session's Live, opened once.
func (l *live) open() (*session.Live, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, &Error{ErrCode: CodeSessionClosed, Msg: "the session is closing"}
	}
	if l.lv == nil {
		sm, _ := l.el.(engine.Sampler) // the model's asker answers sampling too (sampling_dialog.go)
		lv, err := l.core.Using(l.bus, l.el).Answering(sm).Open(l.ctx)
		if err != nil {
			return nil, err
		}
		l.lv = lv
	}
	return l.lv, nil
}

func (l *live) Info() SessionInfo { return l.info }

func (l *live) Declared() []ServerSpec {
	var out []ServerSpec
	for _, s := range l.core.Servers() {
		spec := ServerSpec{Name: s.Name, Transport: s.Transport, Target: target(s), Protocol: s.Protocol, Source: source(l.project, s)}
		if s.Import != nil {
			for _, in := range s.Import.Inputs {
				spec.Inputs = append(spec.Inputs, InputSpec{ID: in.ID, Description: in.Description})
			}
		}
		out = append(out, spec)
	}
	for _, f := range l.failed {
		na := &NotAdmitted{Code: fault.Code(f.Code())}
		for _, p := range f.Problems {
			p.File = relTo(l.project, p.File)
			na.Problems = append(na.Problems, sanitize.Line(p.String()))
		}
		out = append(out, ServerSpec{Name: f.Name, Transport: "-", NotAdmitted: na,
			Source: fmt.Sprintf("not admitted from %s:%d:%d", relTo(l.project, f.File), f.Pos.Line, f.Pos.Col)})
	}
	return out
}

// ProvideSecret implements Backend.
func (l *live) ProvideSecret(server, name, value string) { l.core.ProvideSecret(server, name, value) }

// source is where an imported server is written, for display.
func source(project string, s config.Server) string {
	if s.Import == nil {
		return ""
	}
	out := fmt.Sprintf("imported from %s:%d:%d", relTo(project, s.Pos.File), s.Pos.Line, s.Pos.Col)
	if s.Import.Written != s.Name {
		out += fmt.Sprintf(" (written %q there)", s.Import.Written)
	}
	return out
}

// relTo is file relative to the project when it lies inside it.
func relTo(project, file string) string {
	if rel, err := filepath.Rel(project, file); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return file
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
	ds, failed, err := l.core.Decide()
	if err != nil {
		return nil, err
	}
	for _, s := range l.core.Servers() {
		if ferr, ok := failed[s.Name]; ok {
			l.emitServer(engine.ServerData{Server: s.Name, State: engine.StateFailed, Transport: s.Transport,
				ErrorCode: fault.CodeOf(ferr, ""), Error: sanitize.Text(messageOf(ferr))})
		}
	}
	for _, d := range ds {
		if d.State == consent.NeedsConsent && !l.isConnected(d.Server.Name) {
			l.emitServer(engine.ServerData{Server: d.Server.Name, State: engine.StateNeedsConsent, Transport: host.TransportStdio, Digest: d.Server.Digest})
		}
	}
	return ds, nil
}

// messageOf is an error's message without its code prefix: the Message of
// the first error in the chain that has one (a wrapped error keeps its own
// words), else the whole text. Not fault.MessageOf, which reads only the top
// error and trims its cause: the TUI has always shown these words.
func messageOf(err error) string {
	var m interface{ Message() string }
	if errors.As(err, &m) {
		return m.Message()
	}
	return err.Error()
}

func (l *live) isConnected(name string) bool {
	h := l.host()
	return h != nil && h.Has(name)
}

func (l *live) Answer(server string, a Answer) error {
	r, err := l.core.Resolved(server)
	if err != nil {
		return err
	}
	switch a {
	case ApproveRemember:
		return l.core.Record(r, session.ApproveRemember)
	case ApproveOnce:
		return l.core.Record(r, session.ApproveOnce)
	case DenyConsent:
		_ = l.core.Record(r, session.Deny)
		l.emitServer(engine.ServerData{Server: server, State: engine.StateFailed, Transport: host.TransportStdio, Digest: r.Digest,
			ErrorCode: consent.CodeDenied, Error: "consent denied"})
	}
	return nil
}

func (l *live) AnswerBinding(b *consent.Binding, a Answer) error {
	switch a {
	case ApproveRemember:
		return l.core.RecordBinding(b, session.ApproveRemember)
	case ApproveOnce:
		return l.core.RecordBinding(b, session.ApproveOnce)
	}
	return l.core.RecordBinding(b, session.Deny)
}

func (l *live) Reask(server string) error {
	if !l.isStdio(server) {
		l.core.ReaskBindings(server)
		return nil
	}
	r, err := l.core.Resolved(server)
	if err != nil {
		return err
	}
	l.core.Decider().Reask(r.Digest)
	return nil
}

func (l *live) isStdio(name string) bool {
	for _, s := range l.core.Servers() {
		if s.Name == name {
			return s.Transport == host.TransportStdio
		}
	}
	return false
}

func (l *live) declared(name string) bool {
	for _, s := range l.core.Servers() {
		if s.Name == name {
			return true
		}
	}
	return false
}

// Connect adds one server to the session's host; a server connected or
// connecting already is left as it is.
func (l *live) Connect(ctx context.Context, server string) error {
	if !l.declared(server) {
		return &Error{ErrCode: CodeUnknownServer, Msg: fmt.Sprintf("no server %q is declared in this session", server)}
	}
	lv, err := l.open()
	if err != nil {
		return err
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return &Error{ErrCode: CodeSessionClosed, Msg: "the session is closing"}
	}
	if l.connecting[server] || lv.Host().Has(server) {
		l.mu.Unlock()
		return nil
	}
	l.connecting[server] = true
	l.wg.Add(1)
	l.mu.Unlock()
	defer l.wg.Done()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(l.ctx, cancel)
	defer stop()

	err = lv.Connect(cctx, server)

	l.mu.Lock()
	delete(l.connecting, server)
	l.mu.Unlock()
	if err != nil && cctx.Err() != nil && ctx.Err() == nil {
		return &Error{ErrCode: CodeSessionClosed, Msg: "the connect of " + server + " was called off", Cause: err}
	}
	return err
}

func (l *live) ServerDetails(server string) (host.ServerDetails, bool) {
	h, err := l.connected()
	if err != nil {
		return host.ServerDetails{}, false
	}
	return h.ServerDetails(server)
}

func (l *live) Ping(ctx context.Context, server string) (time.Duration, error) {
	h, err := l.connected()
	if err != nil {
		return 0, err
	}
	return h.Ping(ctx, server)
}

func (l *live) Disconnect(server string) error {
	h := l.host()
	if h == nil {
		return nil
	}
	return h.Remove(server)
}

// Catalogue lists every connected server's tools in declaration order.
func (l *live) Catalogue() ([]engine.ToolDef, []engine.SkippedTool) {
	l.mu.Lock()
	lv := l.lv
	l.mu.Unlock()
	if lv == nil {
		return nil, nil
	}
	return lv.Catalogue()
}

// connected is the session's host, or E701 before anything connected.
func (l *live) connected() (*host.Host, error) {
	if h := l.host(); h != nil {
		return h, nil
	}
	return nil, &Error{ErrCode: CodeNotConnected, Msg: "no server is connected (r connects one)"}
}

func (l *live) Validate(id engine.ToolID, args json.RawMessage) error {
	h, err := l.connected()
	if err != nil {
		return err
	}
	return h.Validate(id, args)
}

// Call calls through engine.Trace over the session's host: the one place
// a tool call becomes events (agent:tool_call with the arguments sanitized
// for display, agent:tool_progress, agent:tool_result), under callID.
func (l *live) Call(ctx context.Context, callID string, tool engine.ToolDef, args json.RawMessage) (*engine.ToolResult, error) {
	h, err := l.connected()
	if err != nil {
		return nil, err
	}
	res, _, err := engine.Trace(ctx, h, l.bus, engine.TracedCall{CallID: callID, Tool: tool, Args: args})
	return res, err
}

func (l *live) Clearance(tool engine.ToolDef) (consent.Clearance, error) {
	return l.core.Clearance(tool, false, false)
}

func (l *live) Headless(tool engine.ToolDef, adhoc bool) (session.HeadlessNeeds, error) {
	return l.core.Headless(tool, adhoc)
}

func (l *live) Approve(tool engine.ToolDef) error { return l.core.Approve(tool) }

func (l *live) Changes(id engine.ToolID) ([]discovery.FieldChange, error) {
	h, err := l.connected()
	if err != nil {
		return nil, err
	}
	changes, _ := h.Changes(id)
	return changes, nil
}

func (l *live) Accept(id engine.ToolID) error {
	h, err := l.connected()
	if err != nil {
		return err
	}
	_, err = h.Accept([]engine.ToolID{id})
	return err
}

// hostOf is the host when server is connected in it.
func (l *live) hostOf(server string) (*host.Host, error) {
	h := l.host()
	if h == nil || !h.Has(server) {
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
	return workflow.LoadWorkflows(l.project)
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
	h, err := l.connected()
	if err != nil {
		return nil, err
	}
	return workflow.Run(ctx, wf, inputs, workflow.RunOptions{Host: h, Emitter: l.bus, Gate: gate, RunID: runID})
}

// Close calls every connect off, closes the host (every child reaped) and
// ends the event stream.
func (l *live) Close() error {
	l.mu.Lock()
	l.closed = true
	lv := l.lv
	l.mu.Unlock()
	l.cancel()
	var err error
	if lv != nil {
		err = lv.Close()
	}
	l.wg.Wait()
	l.bus.Close()
	return err
}
