package machine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/invoke/cli"
)

// Session bounds of `mcp serve` on sse and http. The SDK keeps an idle
// Streamable HTTP session for as long as it is told (and an SSE session for
// as long as its GET stays open), with no cap: every `initialize` that never
// closes costs memory for good. The server holds at most MaxSessions live
// sessions and closes one nobody used for SessionIdleTimeout.
const (
	MaxSessions        = 64
	SessionIdleTimeout = 5 * time.Minute
	sessionSweepEvery  = 30 * time.Second
	// evictWait bounds how long an admission waits for an evicted SSE
	// stream to end.
	evictWait = 2 * time.Second
)

// CodeSessionsFull: a new session was refused because every one of the
// MaxSessions live sessions has a request in flight (none idle to evict).
const CodeSessionsFull fault.Code = "E427"

// sessionTable admits, tracks and evicts the MCP sessions of one server.
//
// A new session (a POST without Mcp-Session-Id on http, a GET on sse) is
// admitted by a ticket before the SDK sees it. When MaxSessions are live the
// least recently used idle one (no request in flight) is closed first; when
// none is idle the new one is refused (HTTP 503, E427): a busy session is
// never cut. Evicting rather than refusing keeps a client that leaks
// sessions from locking everyone else out.
//
// A session is registered by the receiving middleware on its first request
// (initialize); the ticket travels in the context the SDK derives every
// request of that session from, which links the two. The middleware also
// counts requests in flight and the last use, and gives each session its
// binding: a random value, plus the bearer identity it was opened with on
// sse/http, that every confirmation of that session is bound to.
type sessionTable struct {
	max  int
	idle time.Duration
	now  func() time.Time

	server *mcp.Server // the one server of every session
	nonces *NonceStore // a closed session's confirmations are forgotten
	admit  sync.Mutex  // serialises admissions and sweeps
	mu     sync.Mutex  // guards what follows
	live   map[*mcp.ServerSession]*sessionRec
	open   map[*sessionTicket]struct{} // admitted, not yet registered
}

type sessionRec struct {
	ss       *mcp.ServerSession
	bind     string
	inflight int
	last     time.Time
	closing  bool
	ticket   *sessionTicket // nil on stdio
}

// doomed reports a session the SDK is about to close: opened by a POST on
// http, never initialized, nothing in flight. That is the server/discover
// probe a go-sdk client sends before initialize (or a failed initialize):
// the SDK opens a session for it and closes it as soon as that POST
// returns, which can be after the client already sent its initialize. Such
// a session neither counts toward the cap nor is evicted in place of a
// session someone uses.
func (rec *sessionRec) doomed() bool {
	return rec.ticket != nil && !rec.ticket.stream && rec.inflight == 0 && rec.ss.InitializeParams() == nil
}

// sessionTicket is one admitted new-session request.
type sessionTicket struct {
	principal string // bearer identity on sse/http
	opened    time.Time
	stream    bool               // sse: the request is the session's GET stream
	cancel    context.CancelFunc // ends the request (and, on sse, the session)
	gone      chan struct{}      // closed when the request returned
	counted   bool               // still in open
}

type ticketKey struct{}
type principalKey struct{}
type bindingKey struct{}
type statelessKey struct{}

func newSessionTable(server *mcp.Server, nonces *NonceStore, now func() time.Time) *sessionTable {
	if now == nil {
		now = time.Now
	}
	return &sessionTable{max: MaxSessions, idle: SessionIdleTimeout, now: now, server: server, nonces: nonces,
		live: map[*mcp.ServerSession]*sessionRec{}, open: map[*sessionTicket]struct{}{}}
}

// sessionBinding is the confirmation binding of the session that carries
// ctx's request ("" outside a session).
func sessionBinding(ctx context.Context) string {
	b, _ := ctx.Value(bindingKey{}).(string)
	return b
}

// withPrincipal records the bearer identity a request was authenticated
// with (httpGuard).
func withPrincipal(r *http.Request, id string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), principalKey{}, id))
}

var errSessionClosing = errors.New("this MCP session was closed by the server (idle or evicted to admit another); initialize a new session")

// middleware registers a session on its first request and tracks its use.
func (t *sessionTable) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if ss == nil {
			return next(ctx, method, req)
		}
		if principal, ok := ctx.Value(statelessKey{}).(string); ok {
			// The 2026-07-28 era keeps no session: the SDK's one-request
			// session is not the table's to count or evict, and a
			// confirmation is bound to the bearer identity alone (the
			// confirming request is another request, with no session).
			return next(context.WithValue(ctx, bindingKey{}, statelessBinding(principal)), method, req)
		}
		rec, err := t.enter(ctx, ss)
		if err != nil {
			return nil, err
		}
		defer t.leave(rec)
		return next(context.WithValue(ctx, bindingKey{}, rec.bind), method, req)
	}
}

func (t *sessionTable) enter(ctx context.Context, ss *mcp.ServerSession) (*sessionRec, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	rec := t.live[ss]
	if rec == nil {
		tk, _ := ctx.Value(ticketKey{}).(*sessionTicket)
		principal := ""
		if tk != nil {
			if !tk.counted { // evicted before its first request
				return nil, errSessionClosing
			}
			delete(t.open, tk)
			tk.counted = false
			principal = tk.principal
		}
		rec = &sessionRec{ss: ss, bind: newBinding(principal), ticket: tk}
		t.live[ss] = rec
	}
	if rec.closing {
		return nil, errSessionClosing
	}
	rec.inflight++
	rec.last = t.now()
	return rec, nil
}

func (t *sessionTable) leave(rec *sessionRec) {
	t.mu.Lock()
	rec.inflight--
	rec.last = t.now()
	t.mu.Unlock()
}

// newBinding is a session's confirmation binding: 128 random bits and the
// bearer identity (never the token).
func newBinding(principal string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "session:" + hex.EncodeToString(b[:]) + " bearer:" + principal
}

// statelessBinding is the confirmation binding of the 2026-07-28 era on
// http: the bearer identity (never the token), which every request of that
// era carries, since none carries a session.
func statelessBinding(principal string) string {
	return "stateless bearer:" + principal
}

// statelessHandler serves the 2026-07-28 era's requests (erahttp.Route):
// they open no session, so the table admits nothing; their requests are
// marked so that the middleware binds their confirmations to the bearer
// identity.
func statelessHandler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		principal, _ := r.Context().Value(principalKey{}).(string)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), statelessKey{}, principal)))
	})
}

// Live is the number of sessions the table counts: registered ones plus
// admitted ones not yet registered.
func (t *sessionTable) Live() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.live) + len(t.open)
}

// victim is one session to close: a registered one, or an SSE stream that
// never sent a request.
type victim struct {
	rec    *sessionRec
	ticket *sessionTicket
}

// pruneLocked forgets sessions the SDK no longer holds (closed by the
// client, by the SDK's own idle timer, or a failed initialize).
func (t *sessionTable) pruneLocked() {
	held := map[*mcp.ServerSession]bool{}
	for ss := range t.server.Sessions() {
		held[ss] = true
	}
	for ss, rec := range t.live {
		if !held[ss] {
			delete(t.live, ss)
			t.forget(rec)
		}
	}
}

func (t *sessionTable) forget(rec *sessionRec) {
	if t.nonces != nil {
		t.nonces.Forget(rec.bind)
	}
}

// expiredLocked marks every session idle for t.idle as closing.
func (t *sessionTable) expiredLocked(now time.Time) []victim {
	var out []victim
	for _, rec := range t.live {
		if !rec.closing && rec.inflight == 0 && now.Sub(rec.last) >= t.idle {
			rec.closing = true
			out = append(out, victim{rec: rec})
		}
	}
	for tk := range t.open {
		if tk.stream && now.Sub(tk.opened) >= t.idle {
			delete(t.open, tk)
			tk.counted = false
			out = append(out, victim{ticket: tk})
		}
	}
	return out
}

// lruLocked marks the least recently used idle session as closing; false
// when every session has a request in flight.
func (t *sessionTable) lruLocked() (victim, bool) {
	var best victim
	var bestAt time.Time
	for _, rec := range t.live {
		if rec.closing || rec.inflight > 0 || rec.doomed() {
			continue
		}
		if best.rec == nil && best.ticket == nil || rec.last.Before(bestAt) {
			best, bestAt = victim{rec: rec}, rec.last
		}
	}
	for tk := range t.open {
		if tk.stream && (best.rec == nil && best.ticket == nil || tk.opened.Before(bestAt)) {
			best, bestAt = victim{ticket: tk}, tk.opened
		}
	}
	switch {
	case best.rec != nil:
		best.rec.closing = true
	case best.ticket != nil:
		delete(t.open, best.ticket)
		best.ticket.counted = false
	default:
		return victim{}, false
	}
	return best, true
}

// countLocked counts live sessions, those being closed included (the
// doomed ones the SDK closes by itself excepted).
func (t *sessionTable) countLocked() int {
	n := len(t.open)
	for _, rec := range t.live {
		if !rec.doomed() {
			n++
		}
	}
	return n
}

// activeLocked counts live sessions neither being closed nor doomed.
func (t *sessionTable) activeLocked() int {
	n := len(t.open)
	for _, rec := range t.live {
		if !rec.closing && !rec.doomed() {
			n++
		}
	}
	return n
}

// close ends victims, each before it returns: a registered session through
// the SDK (which drops it from the server at once), an SSE stream that never
// sent a request by ending its GET.
func (t *sessionTable) close(vs []victim) {
	for _, v := range vs {
		if v.rec != nil {
			_ = v.rec.ss.Close()
			if v.rec.ticket != nil && v.rec.ticket.cancel != nil {
				v.rec.ticket.cancel() // an SSE session's GET ends with it
			}
			t.mu.Lock()
			delete(t.live, v.rec.ss)
			t.mu.Unlock()
			t.forget(v.rec)
			continue
		}
		v.ticket.cancel()
		select {
		case <-v.ticket.gone:
		case <-time.After(evictWait):
		}
	}
}

// sweep closes every session idle for SessionIdleTimeout.
func (t *sessionTable) sweep() {
	t.admit.Lock()
	defer t.admit.Unlock()
	t.mu.Lock()
	t.pruneLocked()
	vs := t.expiredLocked(t.now())
	t.mu.Unlock()
	t.close(vs)
}

// sweepEvery runs sweep until ctx ends.
func (t *sessionTable) sweepEvery(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			t.sweep()
		}
	}
}

// admitNew admits one new session, closing idle or least recently used
// ones to make room, and returns its ticket with the request context that
// carries it; nil when every live session is busy.
func (t *sessionTable) admitNew(parent context.Context, principal string, stream bool) (*sessionTicket, context.Context) {
	t.admit.Lock()
	defer t.admit.Unlock()
	t.mu.Lock()
	t.pruneLocked()
	now := t.now()
	vs := t.expiredLocked(now)
	for t.activeLocked() >= t.max {
		v, ok := t.lruLocked()
		if !ok {
			break
		}
		vs = append(vs, v)
	}
	t.mu.Unlock()
	t.close(vs) // before the new one counts: the table never holds more than t.max
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.countLocked() >= t.max {
		return nil, nil
	}
	tk := &sessionTicket{principal: principal, opened: now, stream: stream, gone: make(chan struct{}), counted: true}
	var ctx context.Context
	ctx, tk.cancel = context.WithCancel(context.WithValue(parent, ticketKey{}, tk))
	t.open[tk] = struct{}{}
	return tk, ctx
}

// release ends a ticket when its request returned.
func (t *sessionTable) release(tk *sessionTicket) {
	t.mu.Lock()
	if tk.counted {
		delete(t.open, tk)
		tk.counted = false
	}
	t.mu.Unlock()
	close(tk.gone)
}

// handler admits new sessions in front of the SDK handler next. A refusal
// is HTTP 503 with Retry-After and a JSON-RPC error whose message carries
// E427; refused is told about it (the audit log).
func (t *sessionTable) handler(next http.Handler, sse bool, refused func(*http.Request, *cli.Error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		opens := r.Method == http.MethodGet && sse ||
			r.Method == http.MethodPost && !sse && r.Header.Get("Mcp-Session-Id") == ""
		if !opens {
			next.ServeHTTP(w, r)
			return
		}
		principal, _ := r.Context().Value(principalKey{}).(string)
		tk, ctx := t.admitNew(r.Context(), principal, sse)
		if tk == nil {
			err := &cli.Error{ErrCode: CodeSessionsFull, Exit: cli.ExitFailure,
				Msg: "the server already holds its maximum of live MCP sessions and every one has a request in flight; retry later or close a session you no longer use"}
			if refused != nil {
				refused(r, err)
			}
			w.Header().Set("Retry-After", "5")
			writeJSONRPCError(w, http.StatusServiceUnavailable, jsonrpcServerError, err)
			return
		}
		defer t.release(tk)
		defer tk.cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
