package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/host/expand"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/route"
	"github.com/relavium/relavium/sandbox"
)

// Host is a connected set of MCP servers. It implements engine.ToolHost;
// the set may change while it runs (Add, Remove, Reconnect: servers.go);
// Close tears every session and child process group down.
type Host struct {
	opts    Options
	support sandbox.Support // what this kernel can confine (probed once, at Start)
	em      engine.Emitter
	ctx     context.Context // the host's lifetime: cancelled FIRST by Close
	cancel  context.CancelCauseFunc
	router  *route.Progress

	mu      sync.Mutex
	closing bool
	conns   []*conn                // declaration order, then the order servers were added
	pending map[string]*pendingAdd // servers being added (Add), by name
	adds    sync.WaitGroup         // Adds under way: Close waits for them
	// retrying are lost network servers being dialled again (reconnect.go).
	retrying map[string]*retrying
	retries  sync.WaitGroup
	tools    []engine.ToolDef
	byID     map[engine.ToolID]*toolEntry
	byName   map[string]engine.ToolID
	ids      map[*discovery.Tool]engine.ToolID // a tool keeps its id while its server stays
	idSeq    int
	skipped  []engine.SkippedTool
	live     map[int]struct{} // stdio children not yet reaped
	calls    sync.WaitGroup   // in-flight Calls
	callSeq  uint64
	client   clientSide // roots, sampling limits, call deadlines (clientside.go)

	closeOnce sync.Once
}

// toolEntry is one admitted tool as the host routes it.
type toolEntry struct {
	def      engine.ToolDef
	conn     *conn
	tool     *discovery.Tool
	validate func(args json.RawMessage) error
}

// errHostClosing is the cancellation cause Close gives every call and
// handler: at shutdown, or when a person disconnects the server.
var errHostClosing = errors.New("relavium closed the connection to the server")

// Start connects every server concurrently under its deadlines, walks
// each server's tools/list, namespaces the tools across servers and returns
// the live host. It fails loud: when any server fails, every other one is
// torn down, nothing is left running, and the StartError lists EVERY
// failure with the status of every server. ctx bounds the start only; the
// host lives until Close.
func Start(ctx context.Context, opts Options) (*Host, error) {
	opts.withDefaults()
	if err := checkOptions(&opts); err != nil {
		return nil, err
	}
	var roots []clientside.Root
	if opts.Roots != nil { // before anything is spawned: a bad root starts nothing
		r, err := clientside.ResolveRoots(opts.Roots)
		if err != nil {
			return nil, err
		}
		roots = r
	}
	hctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	h := &Host{
		opts:     opts,
		support:  sandbox.Probe(),
		em:       opts.Emitter,
		ctx:      hctx,
		cancel:   cancel,
		router:   route.NewProgress(),
		byID:     map[engine.ToolID]*toolEntry{},
		byName:   map[string]engine.ToolID{},
		ids:      map[*discovery.Tool]engine.ToolID{},
		pending:  map[string]*pendingAdd{},
		retrying: map[string]*retrying{},
		live:     map[int]struct{}{},
	}
	h.client.roots = roots
	// Every secret is resolved before anything is spawned or dialled: a
	// missing one is an authored error and must not leave half a start.
	// Every missing secret of every server is named at once.
	var missing []*failure.Error
	for i := range opts.Servers {
		c := newConn(h, opts.Servers[i])
		if err := c.prepare(); err != nil {
			if m := expand.MissingOf(err); m != nil {
				missing = append(missing, m...)
				continue
			}
			cancel(err)
			return nil, err
		}
		h.conns = append(h.conns, c)
	}
	if len(missing) > 0 {
		err := expand.MissingSecrets(missing)
		cancel(err)
		return nil, err
	}
	var wg sync.WaitGroup
	for _, c := range h.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.start(ctx)
		}()
	}
	wg.Wait()

	var failures []*failure.Error
	for _, c := range h.conns {
		if f := c.failure(); f != nil {
			failures = append(failures, f)
		}
	}
	if len(failures) > 0 {
		status := h.Servers() // before teardown: the states the start ended in
		_ = h.Close()
		return nil, startError(failures, status)
	}
	h.admit()
	for _, c := range h.conns {
		c.watch()
	}
	return h, nil
}

func checkOptions(o *Options) error {
	seen := map[string]bool{}
	for i := range o.Servers {
		s := &o.Servers[i]
		if s.Name == "" {
			return badOptions("server %d has no name", i)
		}
		if seen[s.Name] {
			return badOptions("server %s is given twice", s.Name)
		}
		seen[s.Name] = true
		if err := checkServer(o, s); err != nil {
			return err
		}
	}
	return nil
}

func badOptions(format string, a ...any) error {
	return &failure.Error{Base: fault.Base{ErrCode: failure.CodeBadOptions, Msg: fmt.Sprintf(format, a...)}}
}

// checkServer refuses a server the host cannot connect as declared.
func checkServer(o *Options, s *Endpoint) error {
	if !era.ValidProtocol(s.Protocol) {
		return badOptions("server %s asks for protocol %q (one of 2025-11-25, 2026-07-28, auto)", s.Name, s.Protocol)
	}
	if s.Protocol == era.ProtocolModern && s.Transport == TransportSSE {
		return badOptions("sse server %s cannot speak protocol %s: the legacy SSE transport has only the initialize handshake", s.Name, era.ProtocolModern)
	}
	switch {
	case s.memory != nil:
	case s.Transport == TransportStdio:
		if s.Stdio == nil || s.Stdio.Command == "" || s.Stdio.Command[0] != '/' {
			return badOptions("stdio server %s needs a consent-resolved declaration with an absolute command", s.Name)
		}
	case s.Transport == TransportHTTP, s.Transport == TransportSSE, s.Transport == TransportWebsocket:
		if s.Target == nil || o.Guard == nil {
			return badOptions("%s server %s needs a Target admitted by Options.Guard", s.Transport, s.Name)
		}
		if s.Target.Transport() != s.Transport {
			// The guard's rules differ per transport (a websocket must be
			// local): a target is used only as what it was admitted for.
			return badOptions("%s server %s was admitted by the guard for %s", s.Transport, s.Name, s.Target.Transport())
		}
	default:
		return badOptions("server %s has unknown transport %q", s.Name, s.Transport)
	}
	return nil
}

// admit namespaces every server's catalogue across the session, assigns the
// internal ids calls are routed by, and reports every skipped tool.
func (h *Host) admit() {
	h.mu.Lock()
	skipped := h.renamespace()
	h.mu.Unlock()
	h.emitSkipped(skipped)
}

// renamespace names the catalogues of the current server set across the
// session (h.mu held): a tool keeps the id it had while its server stays,
// a new one gets the next; the tools of a server that left are forgotten.
func (h *Host) renamespace() []engine.SkippedTool {
	tools, skipped := namespace(h.conns)
	clear(h.byID)
	clear(h.byName)
	h.tools = h.tools[:0]
	kept := make(map[*discovery.Tool]engine.ToolID, len(tools))
	for _, t := range tools {
		id, ok := h.ids[t.tool]
		if !ok {
			h.idSeq++
			id = engine.ToolID(fmt.Sprintf("t%d", h.idSeq))
		}
		kept[t.tool] = id
		t.def.ID = id
		h.byID[id] = t
		h.byName[t.def.Name] = id
		h.tools = append(h.tools, t.def)
	}
	h.ids = kept
	h.skipped = skipped
	return skipped
}

// Tools lists every admitted tool in a stable order (declaration order of
// servers, then the server's own order).
func (h *Host) Tools() []engine.ToolDef {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]engine.ToolDef(nil), h.tools...)
}

// Skipped lists every tool refused at discovery, with its reason.
func (h *Host) Skipped() []engine.SkippedTool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]engine.SkippedTool(nil), h.skipped...)
}

// Lookup returns the id of an admitted tool by its namespaced name.
func (h *Host) Lookup(name string) (engine.ToolID, bool) {
	t, ok := h.Tool(name)
	return t.ID, ok
}

// Tool is the admitted tool of that namespaced name (engine.ToolHost): the
// one name → tool lookup, over the current server set.
func (h *Host) Tool(name string) (engine.ToolDef, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	id, ok := h.byName[name]
	if !ok {
		return engine.ToolDef{}, false
	}
	return h.byID[id].def, true
}

// Servers reports the status of every server, in declaration order,
// followed by the servers that were not started.
func (h *Host) Servers() []ServerStatus {
	conns := h.connList()
	out := make([]ServerStatus, 0, len(conns)+len(h.opts.NotStarted))
	for _, c := range conns {
		out = append(out, c.status())
	}
	for _, n := range h.opts.NotStarted {
		out = append(out, ServerStatus{Name: n.Name, Transport: n.Transport, State: engine.StateFailed,
			Digest: n.Digest, ErrorCode: n.Code, Error: n.Reason})
	}
	return out
}

// PIDs is the live view of stdio child processes: spawned (including those
// still initializing) and not yet reaped.
func (h *Host) PIDs() []int {
	h.mu.Lock()
	live := make(map[int]struct{}, len(h.live))
	for pid := range h.live {
		live[pid] = struct{}{}
	}
	h.mu.Unlock()
	// A child whose Wait returned is reaped, even while its teardown (the
	// rest of its tree) is still under way.
	for _, c := range h.connList() {
		if ch := c.child(); ch != nil && ch.HasExited() {
			delete(live, ch.Pid)
		}
	}
	out := make([]int, 0, len(live))
	for pid := range live {
		out = append(out, pid)
	}
	sort.Ints(out)
	return out
}

// connList is the current server set.
func (h *Host) connList() []*conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*conn(nil), h.conns...)
}

func (h *Host) addPID(pid int) {
	h.mu.Lock()
	h.live[pid] = struct{}{}
	h.mu.Unlock()
}

func (h *Host) forgetPID(pid int) {
	h.mu.Lock()
	delete(h.live, pid)
	h.mu.Unlock()
}

// Close tears the host down, in this order: every in-flight call and
// handler is cancelled (so no SDK Close can wait on one); the calls have
// returned; every session is closed; every stdio child's process group gets
// stdin EOF, then SIGTERM, then SIGKILL, each after the grace; Close returns
// only once every child is reaped. Idempotent; safe to call concurrently.
// The error is always nil (a server's own shutdown complaints are not the
// caller's to act on); Close satisfies io.Closer.
func (h *Host) Close() error {
	h.closeOnce.Do(func() {
		h.mu.Lock()
		h.closing = true
		h.mu.Unlock()
		h.cancel(errHostClosing)
		h.retries.Wait() // each redial ends on the cancel
		h.adds.Wait()    // each Add under way fails on the cancel and tears its server down
		h.calls.Wait()
		conns := h.connList()
		var wg sync.WaitGroup
		for _, c := range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.shutdown()
			}()
		}
		wg.Wait()
		for _, c := range conns {
			c.finishWatch()
			c.closed()
		}
	})
	return nil
}
