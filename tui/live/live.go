package live

import (
	"context"
	"encoding/json"
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
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/workflow"
)

// Adapter is the Backend over the real packages: the session core's Live
// (resolution and one consent Decider for the session, one host whose
// server set changes as servers connect, fail, reconnect and close), the
// engine's runner, and one event bus.
type Adapter struct {
	core    *session.Session
	project string
	now     func() time.Time
	info    backend.SessionInfo
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

func New(ctx context.Context, wb session.Workbench, info backend.SessionInfo) *Adapter {
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	return &Adapter{core: wb.Session, project: wb.Project, now: wb.Now, info: info, bus: engine.NewBus(engine.BusOptions{Now: wb.Now}),
		ctx: lctx, cancel: cancel, connecting: map[string]bool{}, getenv: wb.Getenv, failed: wb.Failed}
}

// SetElicitor installs the model's elicitor before anything connects.
func (l *Adapter) SetElicitor(el engine.Elicitor) {
	l.mu.Lock()
	l.el = el
	l.mu.Unlock()
}

// host is the session's one host, opened on the first connect (with the
// model's elicitor, installed by then); nil before it and after Close.
func (l *Adapter) host() *host.Host {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lv == nil {
		return nil
	}
	return l.lv.Host()
}

// open is the session's Live, opened once.
func (l *Adapter) open() (*session.Live, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, &backend.Error{ErrCode: backend.CodeSessionClosed, Msg: "the session is closing"}
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

func (l *Adapter) Info() backend.SessionInfo { return l.info }

func (l *Adapter) Declared() []backend.ServerSpec {
	var out []backend.ServerSpec
	for _, s := range l.core.Servers() {
		spec := backend.ServerSpec{Name: s.Name, Transport: s.Transport, Target: target(s), Protocol: s.Protocol, Source: Source(l.project, s)}
		if origin, err := consent.Origin(s.URL); s.LocalHeld && err == nil {
			spec.Held = origin
		}
		if s.Import != nil {
			for _, in := range s.Import.Inputs {
				spec.Inputs = append(spec.Inputs, backend.InputSpec{ID: in.ID, Description: in.Description})
			}
		}
		out = append(out, spec)
	}
	for _, f := range l.failed {
		na := &backend.NotAdmitted{Code: fault.Code(f.Code())}
		for _, p := range f.Problems {
			p.File = relTo(l.project, p.File)
			na.Problems = append(na.Problems, sanitize.Line(p.String()))
		}
		out = append(out, backend.ServerSpec{Name: f.Name, Transport: "-", NotAdmitted: na,
			Source: fmt.Sprintf("not admitted from %s:%d:%d", relTo(l.project, f.File), f.Pos.Line, f.Pos.Col)})
	}
	return out
}

// ProvideSecret implements Backend.
func (l *Adapter) ProvideSecret(server, name, value string) {
	l.core.ProvideSecret(server, name, value)
}

// Source is where an imported server is written, for display.
func Source(project string, s config.Server) string {
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

func (l *Adapter) Subscribe() *engine.Subscription { return l.bus.Subscribe() }

func (l *Adapter) emitServer(d engine.ServerData) {
	l.bus.Emit(engine.Event{Type: engine.EventServer, Data: d})
}

func (l *Adapter) Decide(ctx context.Context) ([]consent.Decision, error) {
	// Every row starts as resolving (the model's initial state), and the
	// connect that follows consent announces resolving itself: no event here.
	ds, failed, err := l.core.Decide()
	if err != nil {
		return nil, err
	}
	for _, s := range l.core.Servers() {
		if ferr, ok := failed[s.Name]; ok {
			l.emitServer(engine.ServerData{Server: s.Name, State: engine.StateFailed, Transport: s.Transport,
				ErrorCode: fault.CodeOf(ferr, ""), Error: sanitize.Text(backend.MessageOf(ferr))})
		}
	}
	for _, d := range ds {
		if d.State == consent.NeedsConsent && !l.isConnected(d.Server.Name) {
			l.emitServer(engine.ServerData{Server: d.Server.Name, State: engine.StateNeedsConsent, Transport: host.TransportStdio, Digest: d.Server.Digest})
		}
	}
	return ds, nil
}

func (l *Adapter) isConnected(name string) bool {
	h := l.host()
	return h != nil && h.Has(name)
}

func (l *Adapter) Answer(server string, a backend.Answer) error {
	r, err := l.core.Resolved(server)
	if err != nil {
		return err
	}
	switch a {
	case backend.ApproveRemember:
		return l.core.Record(r, session.ApproveRemember)
	case backend.ApproveOnce:
		return l.core.Record(r, session.ApproveOnce)
	case backend.DenyConsent:
		_ = l.core.Record(r, session.Deny)
		l.emitServer(engine.ServerData{Server: server, State: engine.StateFailed, Transport: host.TransportStdio, Digest: r.Digest,
			ErrorCode: consent.CodeDenied, Error: "consent denied"})
	}
	return nil
}

func (l *Adapter) AnswerBinding(b *consent.Binding, a backend.Answer) error {
	switch a {
	case backend.ApproveRemember:
		return l.core.RecordBinding(b, session.ApproveRemember)
	case backend.ApproveOnce:
		return l.core.RecordBinding(b, session.ApproveOnce)
	}
	return l.core.RecordBinding(b, session.Deny)
}

func (l *Adapter) Reask(server string) error {
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

func (l *Adapter) isStdio(name string) bool {
	for _, s := range l.core.Servers() {
		if s.Name == name {
			return s.Transport == host.TransportStdio
		}
	}
	return false
}

func (l *Adapter) declared(name string) bool {
	for _, s := range l.core.Servers() {
		if s.Name == name {
			return true
		}
	}
	return false
}

// Connect adds one server to the session's host; a server connected or
// connecting already is left as it is.
func (l *Adapter) Connect(ctx context.Context, server string) error {
	if !l.declared(server) {
		return &backend.Error{ErrCode: backend.CodeUnknownServer, Msg: fmt.Sprintf("no server %q is declared in this session", server)}
	}
	lv, err := l.open()
	if err != nil {
		return err
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return &backend.Error{ErrCode: backend.CodeSessionClosed, Msg: "the session is closing"}
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
		return &backend.Error{ErrCode: backend.CodeSessionClosed, Msg: "the connect of " + server + " was called off", Cause: err}
	}
	return err
}

func (l *Adapter) ServerDetails(server string) (host.ServerDetails, bool) {
	h, err := l.connected()
	if err != nil {
		return host.ServerDetails{}, false
	}
	return h.ServerDetails(server)
}

func (l *Adapter) Ping(ctx context.Context, server string) (time.Duration, error) {
	h, err := l.connected()
	if err != nil {
		return 0, err
	}
	return h.Ping(ctx, server)
}

func (l *Adapter) Disconnect(server string) error {
	h := l.host()
	if h == nil {
		return nil
	}
	return h.Remove(server)
}

// Catalogue lists every connected server's tools in declaration order.
func (l *Adapter) Catalogue() ([]engine.ToolDef, []engine.SkippedTool) {
	l.mu.Lock()
	lv := l.lv
	l.mu.Unlock()
	if lv == nil {
		return nil, nil
	}
	return lv.Catalogue()
}

// connected is the session's host, or E701 before anything connected.
func (l *Adapter) connected() (*host.Host, error) {
	if h := l.host(); h != nil {
		return h, nil
	}
	return nil, &backend.Error{ErrCode: backend.CodeNotConnected, Msg: "no server is connected (r connects one)"}
}

func (l *Adapter) Validate(id engine.ToolID, args json.RawMessage) error {
	h, err := l.connected()
	if err != nil {
		return err
	}
	return h.Validate(id, args)
}

// Call calls through engine.Trace over the session's host: the one place
// a tool call becomes events (agent:tool_call with the arguments sanitized
// for display, agent:tool_progress, agent:tool_result), under callID.
func (l *Adapter) Call(ctx context.Context, callID string, tool engine.ToolDef, args json.RawMessage) (*engine.ToolResult, error) {
	h, err := l.connected()
	if err != nil {
		return nil, err
	}
	res, _, err := engine.Trace(ctx, h, l.bus, engine.TracedCall{CallID: callID, Tool: tool, Args: args})
	return res, err
}

func (l *Adapter) Clearance(tool engine.ToolDef) (consent.Clearance, error) {
	return l.core.Clearance(tool, false, false)
}

func (l *Adapter) Headless(tool engine.ToolDef, adhoc bool) (session.HeadlessNeeds, error) {
	return l.core.Headless(tool, adhoc)
}

func (l *Adapter) Approve(tool engine.ToolDef) error { return l.core.Approve(tool) }

func (l *Adapter) Changes(id engine.ToolID) ([]discovery.FieldChange, error) {
	h, err := l.connected()
	if err != nil {
		return nil, err
	}
	changes, _ := h.Changes(id)
	return changes, nil
}

func (l *Adapter) Accept(id engine.ToolID) error {
	h, err := l.connected()
	if err != nil {
		return err
	}
	_, err = h.Accept([]engine.ToolID{id})
	return err
}

// hostOf is the host when server is connected in it.
func (l *Adapter) hostOf(server string) (*host.Host, error) {
	h := l.host()
	if h == nil || !h.Has(server) {
		return nil, &backend.Error{ErrCode: backend.CodeNotConnected, Msg: "server " + server + " is not connected (r connects it)"}
	}
	return h, nil
}

func (l *Adapter) Resources(ctx context.Context, server string) (*host.ResourceList, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.Resources(ctx, server)
}

func (l *Adapter) ReadResource(ctx context.Context, server, uri string) ([]engine.Content, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.ReadResource(ctx, server, uri)
}

func (l *Adapter) Prompts(ctx context.Context, server string) ([]host.Prompt, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.Prompts(ctx, server)
}

func (l *Adapter) GetPrompt(ctx context.Context, server, name string, args map[string]string) (*host.PromptResult, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.GetPrompt(ctx, server, name, args)
}

func (l *Adapter) Workflows() ([]*workflow.Workflow, error) {
	return workflow.LoadWorkflows(l.project)
}

// RunWorkflow runs wf on the servers this session connected: each server it
// names must be connected (its tools are found by name through the
// registry, like `relavium run`).
func (l *Adapter) RunWorkflow(ctx context.Context, runID string, wf *workflow.Workflow, inputs map[string]any, gate workflow.GateFunc) (*workflow.RunResult, error) {
	var missing []string
	for _, ref := range wf.Servers {
		if !l.isConnected(ref.Ref) {
			missing = append(missing, ref.Ref)
		}
	}
	if len(missing) > 0 {
		return nil, &backend.Error{ErrCode: backend.CodeWorkflowServers, Msg: fmt.Sprintf("workflow %s needs %s, not connected in this session (relavium run %s connects its own)",
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
func (l *Adapter) Close() error {
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
