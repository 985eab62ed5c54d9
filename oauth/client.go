package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/netguard"
)

// guarded is the http client of one server's sign-in: every request it
// makes — metadata documents, registration, token and refresh — is first
// admitted by the network guard on its own url, with the server's
// declaration deciding what may be local (the server's own host:port when
// it sets allow_local_endpoint, and each host:port of oauth.allow_local_auth).
// A url the guard refuses gets the guard's code and no request is sent. The
// guard's client refuses every redirect (E565); the only redirect of the
// flow, the authorization server's to the loopback callback, happens in the
// person's browser, never here.
type guarded struct {
	guard *netguard.Guard
	local map[string]bool // lower-cased host:port

	mu      sync.Mutex
	clients map[string]*http.Client // by origin and opt-in

	refused atomic.Pointer[netguard.Error] // the first refusal, for errors the SDK flattens
}

func newGuarded(g *netguard.Guard, local []string) *guarded {
	m := map[string]bool{}
	for _, hp := range local {
		if n, ok := normalHostPort(hp); ok {
			m[n] = true
		}
	}
	return &guarded{guard: g, local: m, clients: map[string]*http.Client{}}
}

// client is an http.Client whose every request goes through the guard.
func (g *guarded) client() *http.Client {
	return &http.Client{Transport: g, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse // the guard's transport has already refused it
	}}
}

// admit checks one url the flow is about to use. The refusal is a runtime
// one (exit 1): the url came from a server's document, not from the person.
func (g *guarded) admit(raw string) (*netguard.Target, error) {
	u, err := url.Parse(raw)
	local := false
	if err == nil {
		local = g.isLocal(u)
	}
	t, err := g.guard.Admit(raw, netguard.TransportHTTP, local)
	if err != nil {
		if r, ok := netguard.AsRefusal(err); ok {
			c := *r
			c.Exit = fault.ExitFailure
			if c.Reason == netguard.ReasonPrivateAddress {
				c.Msg = strings.Replace(c.Msg, "the server does not set allow_local_endpoint", "the server's declaration does not open it (oauth.allow_local_auth)", 1)
				c.Remedy = fmt.Sprintf("if %s is your own authorization server, add %q to this server's oauth.allow_local_auth", hostPortOf(u), hostPortOf(u))
			}
			g.refused.CompareAndSwap(nil, &c)
			return nil, &c
		}
		return nil, err
	}
	return t, nil
}

// isLocal reports whether the declaration opened u's host:port.
func (g *guarded) isLocal(u *url.URL) bool {
	n, ok := normalHostPort(hostPortOf(u))
	return ok && g.local[n]
}

// RoundTrip admits the request's url, then sends it through the guard's
// client for that origin.
func (g *guarded) RoundTrip(req *http.Request) (*http.Response, error) {
	t, err := g.admit(req.URL.String())
	if err != nil {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, err
	}
	key := fmt.Sprintf("%s|%t", strings.ToLower(req.URL.Scheme)+"://"+t.HostPort(), t.AllowLocal())
	g.mu.Lock()
	c := g.clients[key]
	if c == nil {
		c = g.guard.HTTPClient(t)
		g.clients[key] = c
	}
	g.mu.Unlock()
	ctx := netguard.WithRefusalNote(req.Context(), func(e *netguard.Error) { g.refused.CompareAndSwap(nil, e) })
	return c.Transport.RoundTrip(req.WithContext(ctx))
}

// close releases every idle connection of the flow.
func (g *guarded) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, c := range g.clients {
		c.CloseIdleConnections()
	}
}

// refusal returns the first refusal of the guard in this flow, or nil.
func (g *guarded) refusal() *netguard.Error { return g.refused.Load() }

// hostPortOf is u's host:port with the scheme's default port.
func hostPortOf(u *url.URL) string {
	if u == nil {
		return ""
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if strings.EqualFold(u.Scheme, "https") {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// normalHostPort lower-cases a host:port and drops a trailing dot of the
// host; ok is false when it is not host:port.
func normalHostPort(hp string) (string, bool) {
	h, p, err := net.SplitHostPort(hp)
	if err != nil || h == "" || p == "" {
		return "", false
	}
	return net.JoinHostPort(strings.TrimSuffix(strings.ToLower(h), "."), p), true
}

// maxDocument bounds one metadata or registration document.
const maxDocument = 1 << 20

// errNotFound is a metadata url answered 4xx: the next candidate is tried.
var errNotFound = errors.New("not found")

// getJSON fetches one JSON document through the guard. A 4xx is
// errNotFound; anything else that is not a 200 application/json document of
// at most 1 MiB is an error.
func (g *guarded) getJSON(ctx context.Context, raw string, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := g.client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return errNotFound
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %d", redact(raw), resp.StatusCode)
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt != "application/json" {
		return fmt.Errorf("%s answered %q, not application/json", redact(raw), resp.Header.Get("Content-Type"))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return err
	}
	if len(body) > maxDocument {
		return fmt.Errorf("%s sent more than 1 MiB", redact(raw))
	}
	if err := json.Unmarshal(body, into); err != nil {
		return fmt.Errorf("%s is not the JSON document expected: %w", redact(raw), err)
	}
	return nil
}

// redact shows a url without userinfo, query or fragment.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a url that does not parse)"
	}
	r := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	return r.String()
}

// guardFirst returns the guard's refusal when the flow met one (the SDK's
// helpers flatten errors to text), else err.
func (g *guarded) guardFirst(err error) error {
	if r := g.refusal(); r != nil {
		return r
	}
	return err
}
