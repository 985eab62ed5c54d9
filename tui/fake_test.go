package tui

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/oauth"
	"github.com/relavium/relavium/session"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/workflow"
)

// fakeBackend is a Backend for model tests: consent is the real package
// over a temp home (every decision goes through it); connections, calls and
// browsing are scripted, and emit the events the live host would.
type fakeBackend struct {
	// binds are the secret bindings a network server's headers need: its
	// connect is refused (E323) until the decider approves them, as the
	// live session refuses it.
	binds   map[string]*consent.Binding
	t       testing.TB
	bus     *engine.Bus
	info    backend.SessionInfo
	specs   []backend.ServerSpec
	decl    map[string]consent.Declaration
	decider *consent.Decider
	store   *consent.Store
	// approvals is the real tool-approval store in the fake's home;
	// autoApprove is each server's tools_auto_approve.
	approvals   *consent.Approvals
	autoApprove map[string][]string
	changes     map[engine.ToolID][]discovery.FieldChange
	accepted    []string

	mu         sync.Mutex
	connected  map[string]bool
	catalog    map[string][]engine.ToolDef
	skip       map[string][]engine.SkippedTool
	connectErr map[string]error
	answers    []string
	connects   []string
	// call answers a tool call (nil: echo the arguments as text).
	call      func(ctx context.Context, callID string, tool engine.ToolDef, args json.RawMessage, progress func(engine.Progress)) (*engine.ToolResult, error)
	validate  func(id engine.ToolID, args json.RawMessage) error
	workflows []*workflow.Workflow
	exported  []engine.Event
	saved     [][]byte
	// drift is each server's difference from the lock (lockdrift_test.go).
	drift   map[string]backend.LockDrift
	saveDir string            // Save's directory (fake_clientreq_test.go)
	given   map[string]string // secrets typed in the session
	// signIn answers SignIn (nil: refused).
	signIn    func(ctx context.Context, server string, shown func(oauth.Prompt)) error
	taskState fakeTasks // tasks (fake_clientreq_test.go)
}

var fixedNow = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

func newFake(t testing.TB) *fakeBackend {
	home := t.TempDir()
	st := consent.Open(home)
	f := &fakeBackend{
		t: t, bus: engine.NewBus(engine.BusOptions{Now: func() time.Time { return fixedNow }}),
		info:        backend.SessionInfo{Project: "/data/app", Theme: themes.Choice{Name: "mono", Source: "test"}},
		decl:        map[string]consent.Declaration{},
		store:       st,
		approvals:   consent.OpenApprovals(home, func() time.Time { return fixedNow }),
		autoApprove: map[string][]string{}, changes: map[engine.ToolID][]discovery.FieldChange{},
		decider:   consent.NewDecider(st, nil, func() time.Time { return fixedNow }),
		connected: map[string]bool{}, catalog: map[string][]engine.ToolDef{}, skip: map[string][]engine.SkippedTool{},
		connectErr: map[string]error{},
	}
	return f
}

// addStdio declares a stdio server /bin/sh with args in cwd "/".
func (f *fakeBackend) addStdio(name string, args ...string) {
	f.specs = append(f.specs, backend.ServerSpec{Name: name, Transport: "stdio", Target: "/bin/sh"})
	f.decl[name] = consent.Declaration{Name: name, Command: "/bin/sh", Args: args, Cwd: "/",
		Env: []consent.EnvVar{{Name: "API_TOKEN", Value: "{{secrets.api_token}}"}, {Name: "MODE", Value: "demo"}}}
}

func (f *fakeBackend) addHTTP(name string) {
	f.specs = append(f.specs, backend.ServerSpec{Name: name, Transport: "http", Target: "https://mcp.example.com/mcp"})
}

// grant remembers a grant for a declaration (an earlier approval the diff
// compares against).
func (f *fakeBackend) grant(d consent.Declaration) {
	r, err := consent.Resolve(d, "/usr/bin:/bin")
	if err != nil {
		f.t.Fatal(err)
	}
	if err := f.store.Grant(r, fixedNow.Add(-24*time.Hour)); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fakeBackend) setTools(server string, tools []engine.ToolDef, skipped []engine.SkippedTool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range tools {
		tools[i].Server = server
		tools[i].Name = "mcp_" + server + "_" + tools[i].Tool
		tools[i].ID = engine.ToolID(server + "/" + tools[i].Tool)
		if tools[i].Digest == "" {
			sum := sha256.Sum256([]byte(tools[i].Name + "\x00" + tools[i].Description + "\x00" + string(tools[i].InputSchema)))
			tools[i].Digest = "sha256:" + hex.EncodeToString(sum[:])
		}
	}
	for i := range skipped {
		skipped[i].Server = server
	}
	f.catalog[server], f.skip[server] = tools, skipped
}

// Clearance applies consent's one rule over the fake's tools_auto_approve
// and its real approval store, as the live session does.
func (f *fakeBackend) Clearance(tool engine.ToolDef) (consent.Clearance, error) {
	f.mu.Lock()
	auto := slices.Contains(f.autoApprove[tool.Server], tool.Tool)
	f.mu.Unlock()
	set, err := f.approvals.Fold(nil)
	return consent.ClearCall(consent.CallRequest{Key: consent.ToolKey{Server: tool.Server, Tool: tool.Tool, Digest: tool.Digest},
		AutoApprove: auto, Changed: tool.Changed}, set), err
}

// Headless decides as a headless invocation would, over the fake's real
// stores: consent.ClearCall with nothing said on the command line (an
// ad-hoc server has no remembered approvals), and a decider of the fake's
// grant store with no --allow-mcp-stdio.
func (f *fakeBackend) Headless(tool engine.ToolDef, adhoc bool) (session.HeadlessNeeds, error) {
	var out session.HeadlessNeeds
	c, err := f.Clearance(tool)
	if adhoc {
		c = consent.ClearCall(consent.CallRequest{Changed: tool.Changed}, nil)
	}
	out.Yes = c == ""
	if err != nil || adhoc {
		return out, err
	}
	if r, err := f.find(tool.Server); err == nil {
		ds, err := consent.NewDecider(f.store, nil, func() time.Time { return fixedNow }).Decide([]*consent.Resolved{r})
		if err != nil {
			return out, err
		}
		if ds[0].Why != consent.ByGrant {
			out.AllowStdio = r.Digest
		}
	}
	return out, nil
}

func (f *fakeBackend) Approve(tool engine.ToolDef) error {
	return f.approvals.Approve(consent.ToolKey{Server: tool.Server, Tool: tool.Tool, Digest: tool.Digest})
}

func (f *fakeBackend) Changes(id engine.ToolID) ([]discovery.FieldChange, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.changes[id], nil
}

// Accept clears the flag, gives the definition a new digest and lapses
// the tool's approvals, as host.Accept does.
func (f *fakeBackend) Accept(id engine.ToolID) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for server, tools := range f.catalog {
		for i := range tools {
			if tools[i].ID == id {
				if err := f.approvals.Lapse(server, tools[i].Tool); err != nil {
					return err
				}
				tools[i].Changed = false
				f.accepted = append(f.accepted, tools[i].Name)
			}
		}
	}
	return nil
}

func (f *fakeBackend) Info() backend.SessionInfo                { return f.info }
func (f *fakeBackend) Declared() []backend.ServerSpec           { return f.specs }
func (f *fakeBackend) Subscribe() *engine.Subscription          { return f.bus.Subscribe() }
func (f *fakeBackend) emit(typ string, data any)                { f.bus.Emit(engine.Event{Type: typ, Data: data}) }
func (f *fakeBackend) Workflows() ([]*workflow.Workflow, error) { return f.workflows, nil }

func (f *fakeBackend) resolved() ([]*consent.Resolved, error) {
	var out []*consent.Resolved
	for _, s := range f.specs {
		if s.Transport != "stdio" {
			continue
		}
		r, err := consent.Resolve(f.decl[s.Name], "/usr/bin:/bin")
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func (f *fakeBackend) Decide(context.Context) ([]consent.Decision, error) {
	rs, err := f.resolved()
	if err != nil {
		return nil, err
	}
	ds, err := f.decider.Decide(rs)
	if err != nil {
		return nil, err
	}
	for _, d := range ds {
		if d.State == consent.NeedsConsent {
			f.emit(engine.EventServer, engine.ServerData{Server: d.Server.Name, State: engine.StateNeedsConsent, Transport: "stdio", Digest: d.Server.Digest})
		}
	}
	return ds, nil
}

func (f *fakeBackend) find(server string) (*consent.Resolved, error) {
	rs, err := f.resolved()
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		if r.Name == server {
			return r, nil
		}
	}
	return nil, fmt.Errorf("no stdio server %s", server)
}

func (f *fakeBackend) Answer(server string, a backend.Answer) error {
	r, err := f.find(server)
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.answers = append(f.answers, server+":"+a.String())
	f.mu.Unlock()
	switch a {
	case backend.ApproveRemember:
		return f.decider.Remember(r)
	case backend.ApproveOnce:
		f.decider.ApproveOnce(r.Digest)
	default:
		f.decider.Deny(r.Digest)
	}
	return nil
}

// AnswerBinding records a binding answer through the fake's decider, as
// the live session does.
func (f *fakeBackend) AnswerBinding(b *consent.Binding, a backend.Answer) error {
	switch a {
	case backend.ApproveRemember:
		return f.decider.RememberBinding(b)
	case backend.ApproveOnce:
		f.decider.ApproveOnce(b.Digest)
	default:
		f.decider.Deny(b.Digest)
	}
	return nil
}

func (f *fakeBackend) Reask(server string) error {
	if b := f.binds[server]; b != nil {
		f.decider.Reask(b.Digest) // a network server: its bindings, as the live session does
		return nil
	}
	r, err := f.find(server)
	if err != nil {
		return err
	}
	f.decider.Reask(r.Digest)
	return nil
}

func (f *fakeBackend) Connect(ctx context.Context, server string) error {
	transport := "http"
	if r, err := f.find(server); err == nil {
		transport = "stdio"
		ds, err := f.decider.Decide([]*consent.Resolved{r})
		if err != nil {
			return err
		}
		if !ds[0].Approved() {
			return errors.New("not approved")
		}
	}
	if b := f.binds[server]; b != nil {
		ds, err := f.decider.DecideBindings([]*consent.Binding{b})
		if err != nil {
			return err
		}
		if ds[0].State == consent.Denied {
			return consent.BindingDeniedError(b)
		}
		if err := consent.RequireAll(nil, ds, false); err != nil {
			return err
		}
	}
	f.mu.Lock()
	f.connects = append(f.connects, server)
	cerr := f.connectErr[server]
	n := len(f.catalog[server])
	f.mu.Unlock()
	f.emit(engine.EventServer, engine.ServerData{Server: server, State: engine.StateConnecting, Transport: transport, PID: 4242})
	if cerr != nil {
		f.emit(engine.EventServer, engine.ServerData{Server: server, State: engine.StateFailed, Transport: transport, PID: 4242,
			ErrorCode: fault.CodeOf(cerr, ""), Error: backend.MessageOf(cerr), StderrTail: "Traceback (most recent call last):\n  boom\n"})
		return cerr
	}
	f.mu.Lock()
	f.connected[server] = true
	f.mu.Unlock()
	for _, s := range f.skip[server] {
		f.emit(engine.EventToolSkipped, s)
	}
	f.emit(engine.EventServer, engine.ServerData{Server: server, State: engine.StateReady, Transport: transport, PID: 4242,
		ConnectMS: 412, Protocol: "2025-11-25", Tools: n})
	return nil
}

// ProvideSecret records a typed secret; a server whose every input is now
// given connects as the live session would (its missing-secret failure
// cleared).
func (f *fakeBackend) ProvideSecret(_, name, value string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.given == nil {
		f.given = map[string]string{}
	}
	f.given[name] = value
	for _, s := range f.specs {
		all := len(s.Inputs) > 0
		for _, in := range s.Inputs {
			if _, ok := f.given[in.ID]; !ok {
				all = false
			}
		}
		if all {
			delete(f.connectErr, s.Name)
		}
	}
}

func (f *fakeBackend) Disconnect(server string) error {
	f.mu.Lock()
	was := f.connected[server]
	delete(f.connected, server)
	f.mu.Unlock()
	if was {
		f.emit(engine.EventServer, engine.ServerData{Server: server, State: engine.StateClosed, Transport: "stdio"})
	}
	return nil
}

func (f *fakeBackend) Catalogue() ([]engine.ToolDef, []engine.SkippedTool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var tools []engine.ToolDef
	var skipped []engine.SkippedTool
	for _, s := range f.specs {
		if f.connected[s.Name] {
			tools = append(tools, f.catalog[s.Name]...)
			skipped = append(skipped, f.skip[s.Name]...)
		}
	}
	return tools, skipped
}

func (f *fakeBackend) Validate(id engine.ToolID, args json.RawMessage) error {
	if f.validate != nil {
		return f.validate(id, args)
	}
	return nil
}

func (f *fakeBackend) Call(ctx context.Context, callID string, tool engine.ToolDef, args json.RawMessage) (*engine.ToolResult, error) {
	f.emit(engine.EventToolCall, engine.ToolCallData{CallID: callID, Tool: tool.Name, Server: tool.Server, Args: args})
	progress := func(p engine.Progress) {
		f.emit(engine.EventToolProgress, engine.ToolProgressData{CallID: callID, Progress: p})
	}
	var res *engine.ToolResult
	var err error
	if f.call != nil {
		res, err = f.call(ctx, callID, tool, args, progress)
	} else {
		res = &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: string(args)}}}
	}
	f.emit(engine.EventToolResult, engine.ToolResultData{CallID: callID, Tool: tool.Name, Result: res})
	return res, err
}

func (f *fakeBackend) Resources(ctx context.Context, server string) (*host.ResourceList, error) {
	return &host.ResourceList{Offered: true,
		Resources: []host.Resource{{URI: "test://static-text", Name: "static-text", MIMEType: "text/plain"}},
		Templates: []host.ResourceTemplate{{URITemplate: "test://template/{id}/data", Name: "template-data"}}}, nil
}

func (f *fakeBackend) ReadResource(ctx context.Context, server, uri string) ([]engine.Content, error) {
	return []engine.Content{{Type: "resource", URI: uri, MIMEType: "text/plain", Text: "contents of " + uri}}, nil
}

func (f *fakeBackend) Prompts(ctx context.Context, server string) ([]host.Prompt, error) {
	return []host.Prompt{{Name: "review_code", Arguments: []host.PromptArgument{{Name: "code", Required: true}}}}, nil
}

func (f *fakeBackend) GetPrompt(ctx context.Context, server, name string, args map[string]string) (*host.PromptResult, error) {
	return &host.PromptResult{Messages: []host.PromptMessage{{Role: "user", Content: engine.Content{Type: "text", Text: "Review: " + args["code"]}}}}, nil
}

func (f *fakeBackend) RunWorkflow(ctx context.Context, runID string, wf *workflow.Workflow, inputs map[string]any, gate workflow.GateFunc) (*workflow.RunResult, error) {
	return workflow.Run(ctx, wf, inputs, workflow.RunOptions{Emitter: f.bus, Gate: gate, RunID: runID})
}

func (f *fakeBackend) Export(events []engine.Event) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.exported = events
	return "/tmp/session.jsonl", nil
}

func (f *fakeBackend) SaveResult(name string, doc []byte) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saved = append(f.saved, doc)
	return "/data/home/results/" + name + ".json", nil
}

func (f *fakeBackend) Close() error {
	f.bus.Close()
	return nil
}

// testErr is a coded error as host returns them.
type testErr struct {
	code fault.Code
	msg  string
}

func (e *testErr) Error() string    { return string(e.code) + ": " + e.msg }
func (e *testErr) Code() fault.Code { return e.code }
func (e *testErr) Message() string  { return e.msg }
