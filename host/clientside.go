package host

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/host/deadline"
)

// clientSide is what the host keeps for the client's side of MCP: the
// roots it offers, the sampling rate limit of each server, and the
// deadlines of the calls in flight with how many of the person's dialogs
// hold each server's calls. Its zero value is ready.
type clientSide struct {
	mu          sync.Mutex
	roots       []clientside.Root
	clients     map[*conn]*mcp.Client
	buckets     map[*conn]*bucket
	holds       map[*conn]int
	deadlines   map[*conn]map[*deadline.Call]struct{}
	sampleSeq   uint64
	callTimeout atomic.Int64 // the session's call timeout in ns (the TUI setting); 0: Timeouts.Call
}

// bucket is a token bucket: burst tokens, refilled at a rate per minute.
type bucket struct {
	tokens float64
	at     time.Time
}

func (cs *clientSide) nextSample() string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.sampleSeq++
	return "sampling-" + strconv.FormatUint(cs.sampleSeq, 10)
}

// allowSample takes one token of c's sampling bucket.
func (cs *clientSide) allowSample(c *conn, clk deadline.Clock) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	now := clk.Now()
	if cs.buckets == nil {
		cs.buckets = map[*conn]*bucket{}
	}
	b := cs.buckets[c]
	if b == nil {
		b = &bucket{tokens: clientside.SamplingBurst, at: now}
		cs.buckets[c] = b
	}
	b.tokens = min(clientside.SamplingBurst, b.tokens+now.Sub(b.at).Minutes()*clientside.SamplingPerMinute)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// hold pauses the deadline of every call of c until the returned resume:
// a dialog of the person's is open on c's behalf.
func (cs *clientSide) hold(c *conn) (resume func()) {
	cs.mu.Lock()
	if cs.holds == nil {
		cs.holds = map[*conn]int{}
	}
	cs.holds[c]++
	for d := range cs.deadlines[c] {
		d.Pause()
	}
	cs.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			cs.mu.Lock()
			defer cs.mu.Unlock()
			if cs.holds[c]--; cs.holds[c] <= 0 {
				delete(cs.holds, c)
			}
			for d := range cs.deadlines[c] {
				d.Resume()
			}
		})
	}
}

// track registers a call's deadline under c, paused as often as c is held
// now (mk runs under the lock: it must not call back into cs), and starts it; the returned func unregisters and stops it.
func (cs *clientSide) track(c *conn, mk func(paused int) *deadline.Call) (*deadline.Call, func()) {
	cs.mu.Lock()
	d := mk(cs.holds[c])
	if cs.deadlines == nil {
		cs.deadlines = map[*conn]map[*deadline.Call]struct{}{}
	}
	if cs.deadlines[c] == nil {
		cs.deadlines[c] = map[*deadline.Call]struct{}{}
	}
	cs.deadlines[c][d] = struct{}{}
	cs.mu.Unlock()
	d.Start()
	return d, func() {
		d.Stop()
		cs.mu.Lock()
		delete(cs.deadlines[c], d)
		if len(cs.deadlines[c]) == 0 {
			delete(cs.deadlines, c)
		}
		cs.mu.Unlock()
	}
}

// forget drops what was kept for c (its connection ended).
func (cs *clientSide) forget(c *conn) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.clients, c)
	delete(cs.buckets, c)
}

// clock is the host's Clock (Options.Clock, else the real one).
func (h *Host) clock() deadline.Clock {
	if h.opts.Clock != nil {
		return h.opts.Clock
	}
	return deadline.RealClock{}
}

// SetCallTimeout sets the session's call timeout (the idle deadline of a
// call on a server without call_timeout_ms); 0 restores the default.
func (h *Host) SetCallTimeout(d time.Duration) {
	h.client.callTimeout.Store(int64(max(d, 0)))
}

// CallTimeout is the session's call timeout now.
func (h *Host) CallTimeout() time.Duration {
	if d := time.Duration(h.client.callTimeout.Load()); d > 0 {
		return d
	}
	return h.opts.Timeouts.Call
}

// clientOptions fills the client's side of c's options: the capabilities
// relavium declares (sampling when a Sampler answers, roots when roots are
// offered, url elicitation when the person can be shown a url) and their
// handlers.
func (c *conn) clientOptions(opts *mcp.ClientOptions) {
	o := &c.h.opts
	caps := opts.Capabilities
	if caps == nil {
		caps = &mcp.ClientCapabilities{}
		opts.Capabilities = caps
	}
	// Sampling is declared and handled even with no Sampler: the request
	// is then declined with a coded reason the server and the log can see,
	// instead of a method the client does not know.
	opts.CreateMessageWithToolsHandler = c.onSample
	caps.Sampling = &mcp.SamplingCapabilities{}
	if o.Roots != nil {
		caps.RootsV2 = &mcp.RootCapabilities{ListChanged: true}
	}
	if o.URLElicitation {
		caps.Elicitation = &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}
		opts.ElicitationCompleteHandler = c.onElicitComplete
	}
}

// attachClient remembers c's client (roots are set on it) and gives it the
// roots offered now.
func (c *conn) attachClient(cl *mcp.Client) {
	cs := &c.h.client
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.clients == nil {
		cs.clients = map[*conn]*mcp.Client{}
	}
	cs.clients[c] = cl
	for _, r := range cs.roots {
		cl.AddRoots(r.MCP())
	}
}

// newDeadline is the clock of one call of tool on c: idle is the server's
// call_timeout_ms, else the session's call timeout; hard is the call's own
// timeout (--timeout), else the session's cap, else deadline.DefaultHardCap.
func (h *Host) newDeadline(c *conn, tool string, timeout time.Duration, paused int, cancel context.CancelCauseFunc) *deadline.Call {
	idle := c.srv.CallTimeout
	if idle <= 0 {
		idle = h.CallTimeout()
	}
	hard := timeout
	if hard <= 0 {
		hard = h.opts.CallCap
	}
	if hard <= 0 {
		hard = deadline.DefaultHardCap
	}
	idleCause := &deadline.Cause{What: "tools/call " + tool + " idle", D: idle,
		Remedy: "nothing came from the server (no progress) for that long; raise call_timeout_ms or the session's call timeout"}
	hardCause := &deadline.Cause{What: "tools/call " + tool, D: hard, Remedy: "raise it with --timeout (time a dialog was open does not count)"}
	if idle >= hard { // one deadline: the hard one says it
		idle, idleCause = hard, hardCause
	}
	return deadline.NewCall(h.clock(), idle, hard, idleCause, hardCause, paused, func(err error) { cancel(err) })
}

// onElicitComplete records a server's notifications/elicitation/complete:
// the page the person was sent to says it is done.
func (c *conn) onElicitComplete(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
	if req == nil || req.Params == nil {
		return
	}
	c.h.em.Emit(engine.Event{Type: engine.EventElicitationResolved, Data: clientside.ResolvedData{Server: c.srv.Name,
		Action: "completed " + sanitize.Line(req.Params.ElicitationID)}})
}
