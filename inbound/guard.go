package inbound

import (
	"bytes"
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
)

// MaxBodyBytes bounds an HTTP request body, as MaxStdioLineBytes bounds a
// stdio line.
const MaxBodyBytes = 4 << 20

// TokenRealm is the WWW-Authenticate challenge of a 401.
const TokenRealm = `Bearer realm="relavium-mcp"`

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

// CheckBind applies the bind rules before any listener opens: a loopback
// host is always allowed; any other host needs at least one --allowed-host
// and a token configured on this run (env, or an existing file; a token this
// run would generate does not count). A refusal is E426.
func CheckBind(host string, allowed []string, configured *Token, home string) error {
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

// Guard fronts the MCP handler of relavium's own HTTP servers: bearer check first (401 with
// WWW-Authenticate before any body byte is read), then Host and Origin
// checks against DNS rebinding (403), then the body read under the read
// timeout and capped at MaxBodyBytes (413), after which the read deadline is
// cleared so long responses (SSE streams, long tool calls) are not cut.
// Every refusal is reported to Refused (mcp serve's audit log); headers,
// bodies and tokens are never logged. Next may read the bearer identity
// from Token.ID.
type Guard struct {
	Token   *Token
	Allowed []string // extra host names besides loopback (--allowed-host)
	Next    http.Handler
	Refused func(r *http.Request, err *fault.Error) // nil: not reported
}

func (g *Guard) refuse(w http.ResponseWriter, r *http.Request, status int, code fault.Code, msg string) {
	if g.Refused != nil {
		g.Refused(r, &fault.Error{ErrCode: code, Msg: msg, Exit: fault.ExitUsage})
	}
	http.Error(w, msg, status)
}

func (g *Guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.Token.CheckRequest(r) {
		w.Header().Set("WWW-Authenticate", TokenRealm)
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
	g.Next.ServeHTTP(w, r)
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}

func (g *Guard) hostAllowed(h string) bool {
	if h == "" {
		return false
	}
	if IsLoopbackHost(h) {
		return true
	}
	for _, a := range g.Allowed {
		if strings.EqualFold(a, h) {
			return true
		}
	}
	return false
}

func (g *Guard) originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return g.hostAllowed(u.Hostname())
}
