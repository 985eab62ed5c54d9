package machine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/invoke"
)

// HTTP limits (docs/machine-invoker.md "Transports and --host").
const (
	MaxBodyBytes      = 4 << 20
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	tokenRealm        = `Bearer realm="relavium-mcp"`
	shutdownGrace     = 2 * time.Second
)

// IsLoopbackHost reports whether a bind host is loopback: localhost, any
// 127.0.0.0/8 address or ::1. The empty host, 0.0.0.0 and :: are not.
func IsLoopbackHost(host string) bool {
	h := strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Unmap().IsLoopback()
}

// checkBind applies the bind rules before any listener opens: a loopback
// host is always allowed; any other host needs at least one --allowed-host
// and a token configured on this run (env, or an existing file; a token this
// run would generate does not count). A refusal is E426.
func checkBind(host string, allowed []string, configured *Token, home string) error {
	if IsLoopbackHost(host) {
		return nil
	}
	if len(allowed) == 0 || configured == nil {
		shown := host
		if shown == "" {
			shown = `""`
		}
		return tokenErr("--host %s is not loopback: a non-loopback bind needs at least one --allowed-host NAME and a token configured with %s or an existing %s", shown, EnvMCPToken, filepath.Join(home, tokenFileName))
	}
	return nil
}

// HTTP refusal codes of `mcp serve` (besides E426 for a missing or wrong
// bearer token): what the audit log records for a 403 and a 413.
const (
	CodeForbiddenHost fault.Code = "E433" // Host or Origin is not a name this server is reachable under (403)
	CodeBodyTooLarge  fault.Code = "E434" // an HTTP request body over MaxBodyBytes (413)
)

// httpGuard fronts the MCP handler: bearer check first (401 with
// WWW-Authenticate before any body byte is read), then Host and Origin
// checks against DNS rebinding (403), then the body read under the read
// timeout and capped at MaxBodyBytes (413), after which the read deadline is
// cleared so long responses (SSE streams, long tool calls) are not cut.
// Every refusal is reported to refused (the audit log); headers, bodies and
// tokens are never logged. A request that passes carries the token's
// identity (withPrincipal) for the sessions it opens.
type httpGuard struct {
	token   *Token
	allowed []string // extra host names (lowercase) besides loopback
	next    http.Handler
	refused func(r *http.Request, err *invoke.Error) // nil: not reported
}

func (g *httpGuard) refuse(w http.ResponseWriter, r *http.Request, status int, code fault.Code, msg string) {
	if g.refused != nil {
		g.refused(r, &invoke.Error{ErrCode: code, Msg: msg, Exit: invoke.ExitUsage})
	}
	http.Error(w, msg, status)
}

func (g *httpGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.token.CheckRequest(r) {
		w.Header().Set("WWW-Authenticate", tokenRealm)
		w.Header().Set("Connection", "close")
		g.refuse(w, r, http.StatusUnauthorized, CodeToken, "unauthorized")
		return
	}
	if !g.hostAllowed(hostOnly(r.Host)) {
		g.refuse(w, r, http.StatusForbidden, CodeForbiddenHost, "forbidden: Host is not a name this server is reachable under")
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !g.originAllowed(origin) {
		g.refuse(w, r, http.StatusForbidden, CodeForbiddenHost, "forbidden: Origin is not allowed")
		return
	}
	rc := http.NewResponseController(w)
	if r.Body != nil && r.Body != http.NoBody {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				w.Header().Set("Connection", "close")
				g.refuse(w, r, http.StatusRequestEntityTooLarge, CodeBodyTooLarge, fmt.Sprintf("request body larger than %d bytes", MaxBodyBytes))
				return
			}
			http.Error(w, "cannot read the request body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	_ = rc.SetReadDeadline(time.Time{})
	g.next.ServeHTTP(w, withPrincipal(r, g.token.id))
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}

func (g *httpGuard) hostAllowed(h string) bool {
	if h == "" {
		return false
	}
	if IsLoopbackHost(h) {
		return true
	}
	for _, a := range g.allowed {
		if strings.EqualFold(a, h) {
			return true
		}
	}
	return false
}

func (g *httpGuard) originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return g.hostAllowed(u.Hostname())
}

// newHTTPServer is the server of the sse and http transports: no write
// timeout, so SSE streams stay open.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		ErrorLog:          nil,
	}
}

// serveHTTP runs srv on ln until ctx ends, then shuts it down; every
// in-flight request's context is cancelled, which stops its children.
func serveHTTP(ctx context.Context, srv *http.Server, ln net.Listener) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
