package machine

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/inbound"
	"github.com/relavium/relavium/internal/erahttp"
	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/invoke/cli"
)

// Run is `relavium mcp serve` (the invoke.ServeFunc main puts in
// Env.Serve): an Invoker over relavium's own command table whose children
// are this binary in inv's project, served on cfg's transport until ctx ends.
func Run(ctx context.Context, inv *cli.Invocation, cfg cli.ServeConfig) error {
	env := inv.Env
	if env.Executable == "" {
		return &cli.Error{ErrCode: cli.CodeNotExposed, Msg: "cannot locate the relavium binary to run commands as children"}
	}
	iv := &Invoker{
		Table:   invoke.Commands(),
		Exe:     env.Executable,
		Project: inv.Global.Project,
		Environ: env.Environ,
		Timeout: cfg.Timeout,
		Nonces:  NewNonceStore(env.Now),
		Audit:   NewAuditLog(env.Home),
		Stderr:  env.Stderr,
		Now:     env.Now,
	}
	return Serve(ctx, env, iv, cfg)
}

// newServer builds the MCP server: one tool per exposed command and one per
// mcp_call workflow, each running through iv, with the session table that
// tracks (and on sse/http caps) its sessions.
func newServer(iv *Invoker, version string, transport Transport, life *serveLife) (*mcp.Server, *sessionTable, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "relavium", Title: "relavium", Version: version}, &mcp.ServerOptions{
		Instructions: "relavium's own commands (tools relavium-<command>) and the project's mcp_call workflows " +
			"(tools relavium_<id>). Every result is one JSON envelope {ok, data|error}. A write, remote or destructive " +
			"request may first return data.confirmation_required: review it and send the identical call again with confirm.",
	})
	sessions := newSessionTable(s, iv.Nonces, iv.Now)
	s.AddReceivingMiddleware(life.middleware, sessions.middleware)
	addCommandTools(s, iv, transport)
	if _, err := addWorkflowTools(s, iv, transport); err != nil {
		return nil, nil, err
	}
	return s, sessions, nil
}

// Serve runs the MCP server on cfg's transport until ctx ends (or, on
// stdio, until the client closes stdin).
func Serve(ctx context.Context, env *cli.Env, iv *Invoker, cfg cli.ServeConfig) error {
	transport := transportOf(cfg.Transport)
	life := newServeLife(ctx)
	defer life.wait(callWaitLimit) // no call's child outlives the server
	s, sessions, err := newServer(iv, env.Version, transport, life)
	if err != nil {
		return err
	}
	if cfg.Transport == "stdio" || cfg.Transport == "" {
		out := inbound.NewLockedWriter(stdoutCloser{env.Stdout})
		// The end of stdin waits for the answers of the requests still in
		// flight (each bounded by the request timeout), then ends the session.
		in := inbound.NewStdioFilter(env.Stdin, out).Drain(ctx, iv.Timeout+callWaitLimit)
		t := &mcp.IOTransport{Reader: in, Writer: out, MaxLineLength: inbound.MaxStdioLineBytes + 1}
		err := s.Run(ctx, t)
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	existing, err := inbound.ExistingToken(env.Home, env.LookupEnv)
	if err != nil {
		return err
	}
	if err := inbound.CheckBind(cfg.Host, cfg.AllowedHosts, existing, env.Home); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port)))
	if err != nil {
		return &cli.Error{ErrCode: inbound.CodeToken, Msg: fmt.Sprintf("cannot listen on %s", net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port))), Cause: err, Exit: cli.ExitFailure}
	}
	token := existing
	if token == nil {
		if token, err = inbound.GenerateToken(env.Home); err != nil {
			ln.Close()
			return err
		}
		fmt.Fprintf(env.Stderr, "relavium mcp serve: generated a bearer token in %s (0600); read it with: cat %s\n", token.Path, token.Path)
	}
	if !inbound.IsLoopbackHost(cfg.Host) {
		fmt.Fprintln(env.Stderr, "relavium mcp serve: warning: the bearer token crosses the network over cleartext HTTP; put a TLS terminator in front of this server")
	}
	h, mountPath := httpHandler(s, sessions, iv, cfg, token)
	srv := newHTTPServer(h)
	sctx, stopSweep := context.WithCancel(ctx)
	defer stopSweep()
	go sessions.sweepEvery(sctx, sessionSweepEvery)
	fmt.Fprintf(env.Stderr, "relavium mcp serve: listening on http://%s%s (%s transport; %s)\n",
		ln.Addr().String(), mountPath, cfg.Transport, token.Describe())
	err = serveHTTP(ctx, srv, ln)
	life.wait(callWaitLimit)
	closeSessions(s)
	return err
}

// httpHandler is the whole HTTP side of the sse and http transports: the
// guard (bearer, Host, Origin, body cap; refusals audited), the session
// table's admission, then the SDK handler, mounted at /mcp (http) or /sse.
//
// inbound.Guard owns the Host check (loopback names plus --allowed-host), so
// the SDK's own loopback-only Host check is off: it would refuse an allowed
// host on a loopback bind (a TLS terminator in front).
func httpHandler(s *mcp.Server, sessions *sessionTable, iv *Invoker, cfg cli.ServeConfig, token *inbound.Token) (http.Handler, string) {
	transport := transportOf(cfg.Transport)
	refusals := newHTTPRefusals(iv, transport)
	var h http.Handler
	mountPath := "/mcp"
	if cfg.Transport == "sse" {
		mountPath = "/sse"
		h = mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, &mcp.SSEOptions{
			DisableLocalhostProtection: true,
			MaxRequestBodyBytes:        inbound.MaxBodyBytes,
		})
	} else {
		legacy, modern := erahttp.Split(s, &mcp.StreamableHTTPOptions{
			MaxRequestBodyBytes:        inbound.MaxBodyBytes,
			SessionTimeout:             SessionIdleTimeout,
			DisableLocalhostProtection: true,
		})
		h = erahttp.Route(sessions.handler(legacy, false, refusals.refused), statelessHandler(modern))
	}
	mux := http.NewServeMux()
	if cfg.Transport == "sse" {
		mux.Handle(mountPath, sessions.handler(h, true, refusals.refused))
	} else {
		mux.Handle(mountPath, h)
	}
	allowed := append([]string(nil), cfg.AllowedHosts...)
	// A request that passes the guard carries the token's identity for the
	// sessions it opens.
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { mux.ServeHTTP(w, withPrincipal(r, token.ID())) })
	return &inbound.Guard{Token: token, Allowed: allowed, Next: next, Refused: refusals.refused}, mountPath
}

// closeSessions ends every session still open when the server stops.
func closeSessions(s *mcp.Server) {
	var open []*mcp.ServerSession
	for ss := range s.Sessions() {
		open = append(open, ss)
	}
	for _, ss := range open {
		_ = ss.Close()
	}
}

// stdoutCloser keeps the process's stdout open when the session closes, and
// passes each message through sanitize.EscapeJSON, as every JSON document
// relavium writes does (a person may run mcp serve in a terminal). The SDK
// writes one whole message and its newline per Write, so the escaping is
// exact: the client decodes the same message.
type stdoutCloser struct{ io.Writer }

func (s stdoutCloser) Write(p []byte) (int, error) {
	if _, err := s.Writer.Write(sanitize.EscapeJSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (stdoutCloser) Close() error { return nil }
