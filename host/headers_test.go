package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/stream"
)

const (
	bearerSecret = "s3cret-bearer-7f1c9a"
	apiKeyValue  = "literal-api-key-42d8"
)

// leakServer is an MCP server that repeats the credentials it received in
// everything a server can say: an error result, a log notification and a
// progress message. Whatever relavium shows of them must not hold them.
func leakServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "leak", Version: "1"}, &mcp.ServerOptions{HasTools: true})
	mcp.AddTool(s, &mcp.Tool{Name: "leak"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		h := http.Header{}
		if req.Extra != nil && req.Extra.Header != nil {
			h = req.Extra.Header
		}
		said := fmt.Sprintf("auth=%q key=%q", h.Get("Authorization"), h.Get("X-Api-Key"))
		_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "error", Data: said})
		if tok := req.Params.GetProgressToken(); tok != nil {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Message: said})
		}
		return nil, nil, errors.New("refused: " + said)
	})
	return s
}

// bearerMux serves s at /mcp (Streamable HTTP), /sse and /ws, answering 401
// to any request without both credentials; seen counts the requests that
// carried them and the ones that did not.
type bearerMux struct {
	mu          sync.Mutex
	good, bad   int
	badRequests []string
}

func (b *bearerMux) serve(t *testing.T, s *mcp.Server) string {
	t.Helper()
	mux := http.NewServeMux()
	get := func(*http.Request) *mcp.Server { return s }
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(get, nil))
	mux.Handle("/sse", mcp.NewSSEHandler(get, nil))
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mcp"}})
		if err != nil {
			return
		}
		ss, err := s.Connect(r.Context(), wsServerTransport{stream.NewWSConn(ws)}, nil)
		if err != nil {
			return
		}
		_ = ss.Wait()
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok := r.Header.Get("Authorization") == "Bearer "+bearerSecret && r.Header.Get("X-Api-Key") == apiKeyValue
		b.mu.Lock()
		if ok {
			b.good++
		} else {
			b.bad++
			b.badRequests = append(b.badRequests, r.Method+" "+r.URL.Path)
		}
		b.mu.Unlock()
		if !ok {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

type mapSecrets map[string]string

func (m mapSecrets) Secret(name string) (string, bool, error) {
	v, ok := m[name]
	return v, ok, nil
}

func bearerHeaders() []Header {
	return []Header{{Name: "Authorization", Value: "Bearer {{secrets.linear}}"}, {Name: "X-Api-Key", Value: apiKeyValue}}
}

func TestStaticHeadersReachEveryTransportAndNeverShow(t *testing.T) {
	var b bearerMux
	base := b.serve(t, leakServer())
	ws := "ws" + strings.TrimPrefix(base, "http")
	for _, tc := range []struct{ transport, url string }{
		{TransportHTTP, base + "/mcp"},
		{TransportSSE, base + "/sse"},
		{TransportWebsocket, ws + "/ws"},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			g := netguard.New()
			rec := &recorder{}
			srv := networkServer(t, g, "n", tc.transport, tc.url)
			srv.Headers = bearerHeaders()
			srv.BoundSecrets = []string{"linear", "t"} // bound by the session in use
			if !srv.StaticAuthorization() {
				t.Error("a declared Authorization header is not reported as static authorization")
			}
			h := startHost(t, Options{Guard: g, Emitter: rec, Secrets: mapSecrets{"linear": bearerSecret}, Servers: []Endpoint{srv}})
			res, err := callTool(t, h, context.Background(), "mcp_n_leak", `{}`, engine.CallOptions{OnProgress: func(engine.Progress) {}})
			var shown []string
			if err != nil {
				shown = append(shown, err.Error())
			}
			if res != nil {
				shown = append(shown, res.Text())
			}
			if err == nil && (res == nil || !res.IsError) {
				t.Fatalf("the leak tool did not fail: %v %v", res, err)
			}
			deadline := time.Now().Add(5 * time.Second)
			for len(rec.ofType(engine.EventToolLog)) < 1 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			st, _ := json.Marshal(h.Servers())
			shown = append(shown, string(st), rec.dump(t), h.Redact("n", "auth=Bearer "+bearerSecret+" key="+apiKeyValue))
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}
			all := strings.Join(shown, "\n")
			for _, secret := range []string{bearerSecret, apiKeyValue} {
				if strings.Contains(all, secret) {
					t.Errorf("a header value is shown:\n%s", all)
				}
			}
			if !strings.Contains(string(st), `"headers":{"Authorization":"[REDACTED]","X-Api-Key":"[REDACTED]"}`) {
				t.Errorf("status does not name the headers with redacted values: %s", st)
			}
			if !strings.Contains(all, "[REDACTED]") {
				t.Errorf("nothing was redacted, so the server never saw the headers:\n%s", all)
			}
			b.mu.Lock()
			defer b.mu.Unlock()
			if b.bad != 0 || b.good == 0 {
				t.Errorf("%d requests without the credentials (%v), %d with", b.bad, b.badRequests, b.good)
			}
		})
	}
}

func TestStaticHeaderRefusals(t *testing.T) {
	g := netguard.New()
	base := serveHTTP(t, inprocServer())
	for _, tc := range []struct {
		name    string
		headers []Header
		secrets mapSecrets
		code    string
	}{
		{"missing secret", []Header{{Name: "Authorization", Value: "Bearer {{secrets.nope}}"}}, mapSecrets{}, "E520"},
		{"newline in the secret", []Header{{Name: "Authorization", Value: "Bearer {{secrets.t}}"}}, mapSecrets{"t": "abc\r\nX-Evil: 1"}, "E594"},
		{"trailing newline", []Header{{Name: "X-Key", Value: "{{secrets.t}}"}}, mapSecrets{"t": "abcdef\n"}, "E594"},
		{"NEL in the secret", []Header{{Name: "Authorization", Value: "Bearer {{secrets.t}}"}}, mapSecrets{"t": "abcdef\u0085X-Evil: 1"}, "E594"},
		{"C1 control in the secret", []Header{{Name: "X-Key", Value: "{{secrets.t}}"}}, mapSecrets{"t": "abcdef\u009b31m"}, "E594"},
		{"line separator in the secret", []Header{{Name: "X-Key", Value: "{{secrets.t}}"}}, mapSecrets{"t": "abcdef\u2028X-Evil: 1"}, "E594"},
		{"reserved name", []Header{{Name: "Host", Value: "evil.example"}}, mapSecrets{}, "E594"},
		{"protocol's own", []Header{{Name: "Mcp-Session-Id", Value: "abc"}}, mapSecrets{}, "E594"},
		{"twice", []Header{{Name: "X-A", Value: "1"}, {Name: "x-a", Value: "2"}}, mapSecrets{}, "E594"},
		{"odd template", []Header{{Name: "X-A", Value: "{{env.HOME:-x}}"}}, mapSecrets{}, "E594"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := networkServer(t, g, "n", TransportHTTP, base+"/mcp")
			srv.Headers = tc.headers
			srv.BoundSecrets = []string{"linear", "t"} // bound by the session in use
			_, err := Start(context.Background(), Options{Guard: g, Secrets: tc.secrets, Servers: []Endpoint{srv}})
			if got := string(codeOf(err)); got != tc.code {
				t.Fatalf("code %s, want %s: %v", got, tc.code, err)
			}
			for _, v := range tc.secrets {
				if strings.Contains(err.Error(), v) || strings.Contains(err.Error(), "abcdef") {
					t.Errorf("the error quotes the value: %v", err)
				}
			}
		})
	}
}

// A server with a static Authorization that answers 401 is E595, naming the
// secret to update and never its value, on every transport; one without a
// static Authorization keeps the ordinary failure (OAuth's to handle).
func TestWrongStaticTokenIsCredentialRefused(t *testing.T) {
	var b bearerMux
	base := b.serve(t, leakServer())
	ws := "ws" + strings.TrimPrefix(base, "http")
	for _, tc := range []struct{ transport, url string }{
		{TransportHTTP, base + "/mcp"},
		{TransportSSE, base + "/sse"},
		{TransportWebsocket, ws + "/ws"},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			g := netguard.New()
			srv := networkServer(t, g, "n", tc.transport, tc.url)
			srv.Headers = bearerHeaders()
			srv.BoundSecrets = []string{"linear", "t"} // bound by the session in use
			_, err := Start(context.Background(), Options{Guard: g, Secrets: mapSecrets{"linear": "wrong-" + bearerSecret}, Servers: []Endpoint{srv}})
			var se *StartError
			if !errors.As(err, &se) || len(se.Failures) != 1 || se.Failures[0].ErrCode != failure.CodeCredentialRefused {
				t.Fatalf("start = %v, want %s", err, failure.CodeCredentialRefused)
			}
			msg := se.Failures[0].Error()
			if !strings.Contains(msg, "401") || !strings.Contains(msg, "{{secrets.linear}}") || strings.Contains(msg, bearerSecret) {
				t.Errorf("E595 message: %s", msg)
			}
			// Without Authorization (only the api key): not E595.
			srv.Headers = []Header{{Name: "X-Api-Key", Value: apiKeyValue}}
			srv.BoundSecrets = []string{"linear", "t"} // bound by the session in use
			_, err = Start(context.Background(), Options{Guard: g, Servers: []Endpoint{srv}})
			if codeOf(err) == "" || errors.As(err, &se) && se.Failures[0].ErrCode == failure.CodeCredentialRefused {
				t.Errorf("a server without a static Authorization got %v", err)
			}
		})
	}
}

// A token revoked mid-session: the call that the server answers 401 is
// E595 too, never its value.
func TestRevokedStaticTokenFailsTheCall(t *testing.T) {
	var revoked atomic.Bool
	s := leakServer()
	// Stateless: the client's DELETE is refused too once the token is
	// revoked, and a stateful test server would keep the session forever.
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if revoked.Load() || r.Header.Get("Authorization") != "Bearer "+bearerSecret {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	g := netguard.New()
	ep := networkServer(t, g, "n", TransportHTTP, srv.URL+"/mcp")
	ep.Headers = []Header{{Name: "Authorization", Value: "Bearer {{secrets.linear}}"}}
	ep.BoundSecrets = []string{"linear", "t"} // bound by the session in use
	host := startHost(t, Options{Guard: g, Secrets: mapSecrets{"linear": bearerSecret}, Servers: []Endpoint{ep}})
	revoked.Store(true)
	_, err := callTool(t, host, context.Background(), "mcp_n_leak", `{}`, engine.CallOptions{})
	if codeOf(err) != failure.CodeCredentialRefused || strings.Contains(err.Error(), bearerSecret) || !strings.Contains(err.Error(), "mcp_n_leak") {
		t.Fatalf("call after revocation = %v, want %s", err, failure.CodeCredentialRefused)
	}
}

// Static headers go to the declared origin only: a legacy SSE server whose
// endpoint event names another origin is refused (E567) before anything,
// headers included, is sent there.
func TestStaticHeadersNeverLeaveTheOrigin(t *testing.T) {
	var elsewhereHits atomic.Int64
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhereHits.Add(1)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer elsewhere.Close()
	sse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.Header.Get("Authorization") != "Bearer "+bearerSecret {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: endpoint\ndata: %s/message?sessionId=1\n\n", elsewhere.URL)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer sse.Close()
	g := netguard.New()
	srv := networkServer(t, g, "n", TransportSSE, sse.URL+"/sse")
	srv.Headers = []Header{{Name: "Authorization", Value: "Bearer {{secrets.linear}}"}}
	srv.BoundSecrets = []string{"linear", "t"} // bound by the session in use
	_, err := Start(context.Background(), Options{Guard: g, Secrets: mapSecrets{"linear": bearerSecret}, Servers: []Endpoint{srv}})
	if codeOf(err) != failure.CodeStartFailed || !strings.Contains(err.Error(), string(netguard.CodeScope)) {
		t.Fatalf("start = %v, want the guard's %s", err, netguard.CodeScope)
	}
	if elsewhereHits.Load() != 0 {
		t.Fatalf("the other origin saw %d requests", elsewhereHits.Load())
	}
}

// The host's backstop of the session's secret binding: a header naming a
// secret the session did not bind to the server's origin is refused
// (E523) before anything is dialled, and the refusal quotes no value.
func TestUnboundHeaderSecretIsNeverSent(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer srv.Close()
	g := netguard.New()
	for _, bound := range [][]string{nil, {"other"}} {
		ep := networkServer(t, g, "n", TransportHTTP, srv.URL+"/mcp")
		ep.Headers = []Header{{Name: "Authorization", Value: "Bearer {{secrets.linear}}"}}
		ep.BoundSecrets = bound
		_, err := Start(context.Background(), Options{Guard: g, Secrets: mapSecrets{"linear": bearerSecret}, Servers: []Endpoint{ep}})
		if codeOf(err) != failure.CodeSecretUnbound || strings.Contains(err.Error(), bearerSecret) {
			t.Fatalf("bound %v: start = %v, want %s", bound, err, failure.CodeSecretUnbound)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("the server saw %d requests", hits.Load())
	}
}
