package host

import (
	"cmp"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/host/deadline"
	"github.com/relavium/relavium/host/direct"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/host/expand"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/headers"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/proc"
	"github.com/relavium/relavium/host/route"
	"github.com/relavium/relavium/host/stream"
	"github.com/relavium/relavium/host/wire"
)

// conn is one server's connection: its lifetime context, its child process
// (stdio), its SDK session and what discovery admitted.
type conn struct {
	h      *Host
	srv    Endpoint
	ctx    context.Context // the server's lifetime: cancelled when it fails or the host closes
	cancel context.CancelCauseFunc

	env     []string          // stdio: the child's whole environment
	args    []string          // stdio: the arguments, {{env.VAR}} references read
	secrets map[string]string // secret name → injected value, registered with the redactor
	headers http.Header       // network: the static headers, resolved (headers.go)
	// authStatus is the last 401 or 403 a server with static headers
	// answered (0: none): why its connect or call failed (headers.go).
	authStatus atomic.Int32

	// note is the first sandbox denial explained on the row (sandbox.go).
	note sandboxNote

	mu          sync.Mutex
	state       string
	ch          *proc.Child
	stray       *stream.Stray // ch's non-JSON stdout lines (host/stream)
	cs          *mcp.ClientSession
	fail        *failure.Error
	connectMS   int64
	protocol    string
	info        *mcp.Implementation
	cat         *discovery.Catalogue
	capture     *discovery.Capture // raw tools/list results for discovery
	rec         *wire.Recorder     // the wire recorder (nil: not recording)
	admitted    int
	skipped     int
	everLive    bool                   // a child was spawned or a session opened
	httpClient  *http.Client           // the guard's client (http, sse): idle connections closed on shutdown
	observed    bool                   // progress is read off the connection, in wire order
	fieldOrders clientside.FieldOrders // elicitation field order, read off the connection
	logLevel    string                 // the level last set with logging/setLevel ("" before)
	notOffered  []string               // list methods answered -32601 though their capability is declared (notoffered.go)
	logs        route.Logs             // requests in flight and the calls among them taking logs (host/route)
	subs        []string               // uris subscribed to, in order (subscribe.go)
	raw         direct.Raw             // relavium's own requests on an observed connection (host/direct)
	load        *direct.LoadLines      // stdio: load answers taken off stdout (host/direct)
	loadW       io.Writer              // stdio: the server's stdin, shared with the SDK (host/direct)

	// notifications/cancelled owed to the server (calls retired by a
	// cancellation or deadline) and seen written. The SDK sends them from a
	// goroutine after the call returned; shutdown lets them reach the wire
	// before it closes the session, which would otherwise drop them.
	cancelsOwed atomic.Int64
	cancelsSent atomic.Int64

	// stream traps the guard's refusals on the requests that outlive a
	// call (the legacy SSE stream, Streamable HTTP's standalone stream):
	// such a refusal is why the session ended.
	stream refusalTrap

	// frameRefusal is why a stdio session's stream was cut: a message the
	// transport refused before decoding (E518, host/stream).
	frameRefusal atomic.Pointer[fault.Error]

	// A tool-list walk after list_changed (listchanged.go): one at a time,
	// once more when asked meanwhile; a liveness probe (liveness.go), one
	// at a time; neither after shutdown began (refreshEnded), which waits
	// for both (refreshes).
	refreshing, refreshAgain, refreshEnded, probing bool
	refreshes                                       sync.WaitGroup

	// lost carries the reason a live network session was seen gone
	// (liveness.go) to watch.
	lost    chan *failure.Error
	lostWhy atomic.Pointer[failure.Error] // the reason noteLost gave, once

	shutOnce  sync.Once
	watchDone chan struct{} // closed when the watcher ended (nil: no watcher)
}

func newConn(h *Host, s Endpoint) *conn {
	ctx, cancel := context.WithCancelCause(h.ctx)
	c := &conn{h: h, srv: s, ctx: ctx, cancel: cancel, secrets: map[string]string{}, lost: make(chan *failure.Error, 1)}
	// The recorder redacts with the connection's own redaction, read
	// when each message is recorded (the secrets are resolved by prepare).
	c.rec = h.opts.Wire.Server(s.Name, c.redactText)
	return c
}

// prepare resolves what must be known before anything is spawned: the
// child's environment with every secret.
func (c *conn) prepare() error {
	if c.srv.memory != nil {
		return nil
	}
	if c.srv.Transport != TransportStdio {
		h, hidden, err := headers.Resolve(c.srv.Name, c.srv.Headers, c.srv.BoundSecrets, c.h.opts.Secrets, c.h.opts.Environ, c.secrets)
		if err != nil {
			return err
		}
		c.headers = h
		c.redactor().AddAll(hidden...)
		c.register()
		return nil
	}
	file, err := expand.EnvFileEntries(c.srv.Name, c.srv.Stdio.EnvFile, c.secrets)
	if err != nil {
		return err
	}
	env, envErr := expand.ChildEnv(c.srv.Name, c.h.opts.Environ, file, c.srv.Stdio.Env, c.h.opts.Secrets, c.secrets)
	args, argsErr := expand.ChildArgs(c.srv.Name, c.h.opts.Environ, c.srv.Stdio.Args, c.h.opts.Secrets, c.secrets)
	if a, b := expand.MissingOf(envErr), expand.MissingOf(argsErr); len(a) > 0 && len(b) > 0 {
		return expand.MissingSecrets(append(a, b...)) // every secret lacking, in one error
	}
	if err := cmp.Or(envErr, argsErr); err != nil {
		return err
	}
	c.env, c.args = env, args
	c.register()
	return nil
}

// register adds every secret the connection injects to the session's
// redactor: a named secret is shown as {{secrets.NAME}}, a value read from
// the environment ({{env.VAR}}) as {{env.VAR}}, an env file's value as
// {{env_file.NAME}}.
func (c *conn) register() {
	for name, v := range c.secrets {
		if vr, ok := strings.CutPrefix(name, "env."); ok {
			c.redactor().AddShown("{{env."+vr+"}}", v)
			continue
		}
		if vr, ok := strings.CutPrefix(name, expand.EnvFilePrefix); ok {
			c.redactor().AddShown("{{"+expand.EnvFilePrefix+vr+"}}", v)
			continue
		}
		c.redactor().Add(name, v)
	}
}

// start connects and discovers. A failure is recorded (and the server torn
// down at once); Start reads it.
func (c *conn) start(ctx context.Context) {
	c.emit(engine.StateConnecting, nil)
	began := time.Now()
	cs, ferr := c.connect(ctx)
	if ferr == nil {
		c.mu.Lock()
		c.connectMS = max(time.Since(began).Milliseconds(), 1)
		c.mu.Unlock()
		ferr = c.setup(ctx, cs)
	}
	if ferr != nil {
		c.failStart(ferr)
	}
}

func (c *conn) connect(ctx context.Context) (*mcp.ClientSession, *failure.Error) {
	if hh := c.srv.HeadersHelper; hh != nil { // at every connect (a reconnect is a new conn), before anything is dialled
		hs, stderr, f := hh.Run(ctx, c.srv.Name, c.h.opts.Environ, c.secrets, c.redactor())
		if c.register(); f != nil {
			return nil, f
		} else if stderr != "" {
			c.strayWarning("its headers helper wrote on stderr: " + stderr)
		}
		c.headers = headers.Merge(c.headers, hs)
	}
	d := c.h.opts.connectTimeout(&c.srv)
	phase := "network connect (dial through initialize)"
	if c.srv.Transport == TransportStdio {
		phase = "stdio connect (spawn through initialize)"
	}
	cause := &deadline.Cause{What: phase, D: d}
	cctx, cancel := context.WithTimeoutCause(ctx, d, cause)
	defer cancel()
	tr, err := c.transport()
	if err != nil {
		return nil, c.connectFailure(ctx, cctx, cause, err)
	}
	// Streamable HTTP keeps the connect context (detached) for the requests
	// that outlive the handshake: the server's stream trap rides on it.
	sctx := cctx
	if c.srv.Target != nil {
		sctx = netguard.WithRefusalNote(cctx, c.stream.note)
	}
	cs, err := c.handshake(sctx, tr)
	if err != nil {
		return nil, c.connectFailure(ctx, cctx, cause, err)
	}
	res := cs.InitializeResult()
	c.mu.Lock()
	c.cs = cs
	c.everLive = true
	if res != nil {
		c.protocol = res.ProtocolVersion
		c.info = res.ServerInfo
	}
	c.mu.Unlock()
	return cs, nil
}

// setLevelWait bounds the wait for an answer to logging/setLevel.
const setLevelWait = 10 * time.Second

// setup sets the log level where the protocol needs it and walks tools/list
// under the discovery deadline.
func (c *conn) setup(ctx context.Context, cs *mcp.ClientSession) *failure.Error {
	cause := &deadline.Cause{What: "tools/list discovery (the whole walk)", D: c.h.opts.Timeouts.Discovery}
	dctx, cancel := context.WithTimeoutCause(ctx, c.h.opts.Timeouts.Discovery, cause)
	defer cancel()
	if res := cs.InitializeResult(); res != nil && res.Capabilities != nil && res.Capabilities.Logging != nil && res.ProtocolVersion < era.ProtocolModern {
		// Legacy protocols send no log notification until a level is set.
		// A server that refuses, or never answers, is still usable: its
		// logs are just not shown. It gets a share of the discovery window,
		// never the whole of it.
		lctx, lcancel := context.WithTimeout(dctx, min(setLevelWait, c.h.opts.Timeouts.Discovery/4))
		if cs.SetLoggingLevel(lctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(c.h.opts.LogLevel)}) == nil {
			c.mu.Lock()
			c.logLevel = c.h.opts.LogLevel
			c.mu.Unlock()
		}
		lcancel()
	}
	cat, err := c.discover(dctx, cs)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return c.failure0(failure.CodeCallCancelled, "tools/list cancelled", context.Cause(ctx))
		case errors.Is(context.Cause(dctx), cause):
			// The walk's own deadline code: a deadline, never reported as
			// the cancellation the walk saw its context end with.
			return c.withProcess(c.failure0(discovery.CodeDeadline, cause.Error(), nil))
		}
		// discovery's own codes (cursor loop, page cap, malformed page, its
		// deadline) say what went wrong; keep them.
		// Its message is taken as it is, so the code and the server are
		// said once, not again inside the cause.
		if r := c.frameRefusal.Load(); r != nil {
			return c.withProcess(c.failure0(r.ErrCode, r.Msg, nil))
		}
		if f := c.signInFailure("tools/list", err); f != nil {
			return f
		}
		var de *discovery.Error
		if errors.As(err, &de) {
			return c.withProcess(c.failure0(de.Code(), de.Msg, de.Cause))
		}
		return c.withProcess(c.failure0(failure.CodeDiscoveryFailed, "tools/list failed", err))
	}
	c.mu.Lock()
	c.cat = cat
	c.admitted, c.skipped = len(cat.Tools), len(cat.Skipped)
	c.mu.Unlock()
	c.emit(engine.StateReady, nil)
	return nil
}

func (c *conn) newClient() *mcp.Client {
	opts := &mcp.ClientOptions{
		Logger: slog.New(slog.DiscardHandler),
		// Roots only when the session offers them (clientside.go): a
		// server such as server-filesystem replaces its allowed directories
		// with the client's roots when the client advertises the capability.
		Capabilities:               &mcp.ClientCapabilities{},
		ElicitationHandler:         c.onElicit,
		ResourceUpdatedHandler:     c.onResourceUpdated,
		ToolListChangedHandler:     c.onToolsChanged,
		PromptListChangedHandler:   c.onPromptsChanged,
		ResourceListChangedHandler: c.onResourcesChanged,
	}
	if !c.observed {
		opts.ProgressNotificationHandler = c.onProgress
		opts.LoggingMessageHandler = c.onLog // observed: logs are read off the wire (logging.go)
	}
	c.clientOptions(opts)
	client := mcp.NewClient(&mcp.Implementation{Name: "relavium", Version: c.h.opts.ClientVersion}, opts)
	client.AddSendingMiddleware(c.logLevelMeta)
	if c.requested() == era.ProtocolModern {
		client.AddSendingMiddleware((&era.DiscoverFirst{}).Middleware)
	}
	c.attachClient(client)
	return client
}

func (c *conn) child() *proc.Child {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ch
}

func (c *conn) session() *mcp.ClientSession {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cs
}

func (c *conn) failure() *failure.Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fail
}

// cancelFlush bounds how long shutdown waits for owed cancellation
// notifications to be written.
const cancelFlush = time.Second
