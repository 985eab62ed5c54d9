package netguard

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countingServer is a real loopback server that counts the requests it sees.
type countingServer struct {
	*httptest.Server
	hits atomic.Int64
}

func newCountingServer(t *testing.T, h http.HandlerFunc) *countingServer {
	t.Helper()
	s := &countingServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// localTarget admits a loopback server's url with the opt-in (scoped to its
// port) on a guard with the system resolver and the default pinned dialer.
func localTarget(t *testing.T, g *Guard, rawURL, path, transport string) *Target {
	t.Helper()
	tg, err := g.Admit(rawURL+path, transport, true)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func get(t *testing.T, c *http.Client, u string) (*http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if resp != nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return resp, err
}

func TestRedirectRefusedAfterExactlyOneRequest(t *testing.T) {
	final := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "final") })
	for _, code := range []int{300, 301, 302, 303, 304, 305, 307, 308} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			before := final.hits.Load()
			origin := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", final.URL+"/mcp")
				w.WriteHeader(code)
			})
			g := New()
			tg := localTarget(t, g, origin.URL, "/mcp", TransportHTTP)
			c := g.HTTPClient(tg)
			defer c.CloseIdleConnections()
			resp, err := get(t, c, tg.URL())
			r, ok := AsRefusal(err)
			if !ok || r.Code() != CodeRedirect {
				t.Fatalf("got resp=%v err=%v, want %s", resp, err, CodeRedirect)
			}
			if resp != nil {
				t.Fatalf("a refused redirect returned a response")
			}
			if n := origin.hits.Load(); n != 1 {
				t.Fatalf("origin saw %d requests, want exactly 1", n)
			}
			if n := final.hits.Load() - before; n != 0 {
				t.Fatalf("the redirect target saw %d requests", n)
			}
			if r.Address != final.URL+"/mcp" || !strings.Contains(r.Remedy, final.URL+"/mcp") {
				t.Errorf("refusal does not name the redirect: address %q remedy %q", r.Address, r.Remedy)
			}
			if tg.Refusal() == nil || tg.Refusal().Code() != CodeRedirect {
				t.Errorf("target did not record the redirect")
			}
		})
	}
}

func TestRedirectWithoutLocationIsRefused(t *testing.T) {
	origin := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusFound) })
	g := New()
	tg := localTarget(t, g, origin.URL, "/", TransportHTTP)
	c := g.HTTPClient(tg)
	defer c.CloseIdleConnections()
	_, err := get(t, c, tg.URL())
	if r, ok := AsRefusal(err); !ok || r.Code() != CodeRedirect {
		t.Fatalf("err = %v, want %s", err, CodeRedirect)
	}
	if origin.hits.Load() != 1 {
		t.Fatalf("origin saw %d requests", origin.hits.Load())
	}
}

// The SDK's Streamable HTTP client follows redirects on every request when
// left alone (its http.Client default); through the guard it makes one request and
// fails with the typed refusal.
func TestStreamableClientRedirectThroughSDK(t *testing.T) {
	final := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) })
	origin := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, final.URL+"/mcp", http.StatusTemporaryRedirect)
	})
	g := New()
	tg := localTarget(t, g, origin.URL, "/mcp", TransportHTTP)
	hc := g.HTTPClient(tg)
	defer hc.CloseIdleConnections()
	transport := &mcp.StreamableClientTransport{Endpoint: tg.URL(), HTTPClient: hc, MaxRetries: -1, MaxEventSize: MessageLimit}
	client := mcp.NewClient(&mcp.Implementation{Name: "netguard-test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err == nil {
		cs.Close()
		t.Fatal("connected through a redirect")
	}
	if r, ok := AsRefusal(err); ok && r.Code() != CodeRedirect {
		t.Fatalf("refused with %s, want %s", r.Code(), CodeRedirect)
	}
	if r := tg.Refusal(); r == nil || r.Code() != CodeRedirect {
		t.Fatalf("target refusal = %v, want %s (sdk error: %v)", r, CodeRedirect, err)
	}
	if n := origin.hits.Load(); n != 1 {
		t.Fatalf("origin saw %d requests, want exactly 1", n)
	}
	if n := final.hits.Load(); n != 0 {
		t.Fatalf("the redirect target saw %d requests", n)
	}
}

func TestCheckRedirectRefusesToo(t *testing.T) {
	// The transport refuses first; CheckRedirect is the backstop, and it
	// refuses as well.
	g := New()
	tg, err := g.Admit("https://api.example.com/mcp", TransportHTTP, false)
	if err != nil {
		t.Fatal(err)
	}
	c := g.HTTPClient(tg)
	u, _ := url.Parse("https://elsewhere.example.com/")
	err = c.CheckRedirect(&http.Request{URL: u}, nil)
	if r, ok := AsRefusal(err); !ok || r.Code() != CodeRedirect {
		t.Fatalf("CheckRedirect = %v", err)
	}
	if c.Timeout != 0 {
		t.Fatalf("client Timeout = %v; it would kill the long-lived SSE stream", c.Timeout)
	}
}
