package machine

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/inbound"
	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/invoke/cli"
)

// httpServe is an in-process `mcp serve --transport http|sse` on a real
// loopback listener (httptest), on an injected clock.
type httpServe struct {
	iv       *Invoker
	home     string
	clk      *nonceClock
	server   *mcp.Server
	sessions *sessionTable
	url      string
	token    string
	tokenID  string // the bearer identity sessions are bound to
}

func newHTTPServe(tb testing.TB, transport string) *httpServe {
	tb.Helper()
	home, project := tb.TempDir(), tb.TempDir()
	clk := &nonceClock{t: time.Now()}
	iv := &Invoker{Table: invoke.Commands(), Exe: "/nonexistent/relavium", Project: project, Timeout: time.Minute,
		Nonces: NewNonceStore(clk.now), Audit: NewAuditLog(home), Stderr: io.Discard, Now: clk.now}
	ctx, cancel := context.WithCancel(context.Background())
	life := newServeLife(ctx)
	s, sessions, err := newServer(iv, "test", transportOf(transport), life)
	if err != nil {
		tb.Fatal(err)
	}
	sessions.now = clk.now
	tok, err := inbound.ExistingToken(home, func(k string) (string, bool) { return "flood-token", k == inbound.EnvMCPToken })
	if err != nil {
		tb.Fatal(err)
	}
	h, mount := httpHandler(s, sessions, iv, cli.ServeConfig{Transport: transport}, tok)
	ts := httptest.NewServer(h)
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		cancel()
		life.wait(callWaitLimit)
		closeSessions(s)
	})
	return &httpServe{iv: iv, home: home, clk: clk, server: s, sessions: sessions, url: ts.URL + mount, token: "flood-token", tokenID: tok.ID()}
}

// sdkSessions is the number of sessions the SDK holds.
func (h *httpServe) sdkSessions() int {
	n := 0
	for range h.server.Sessions() {
		n++
	}
	return n
}

// settle waits (a liveness bound, not a timing check) until the SDK holds
// want sessions, then lets the table forget the ones it dropped. A go-sdk
// client probes with server/discover before it initializes; the SDK opens a
// session for the probe and closes it only after answering, so just after
// Connect the probe's session may still be there.
func (h *httpServe) settle(want int) {
	for end := time.Now().Add(10 * time.Second); h.sdkSessions() != want && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	h.sessions.mu.Lock()
	h.sessions.pruneLocked()
	h.sessions.mu.Unlock()
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}}`

// initialize opens one session with a raw POST and never closes it.
func (h *httpServe) initialize(tb testing.TB, c *http.Client) (int, string) {
	req, _ := http.NewRequest("POST", h.url, strings.NewReader(initializeBody))
	req.Header.Set("Authorization", "Bearer "+h.token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return resp.StatusCode, string(body)
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// floodInitialize sends n initialize requests from workers concurrent
// clients and returns the highest session count seen by the SDK and by the
// table, sampled continuously.
func floodInitialize(tb testing.TB, h *httpServe, n, workers int) (maxSDK, maxTable int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var peakSDK, peakTable atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if v := int64(h.sdkSessions()); v > peakSDK.Load() {
				peakSDK.Store(v)
			}
			if v := int64(h.sessions.Live()); v > peakTable.Load() {
				peakTable.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			defer c.CloseIdleConnections()
			for next.Add(1) <= int64(n) {
				if code, body := h.initialize(tb, c); code != http.StatusOK {
					tb.Errorf("initialize: %d %s", code, body)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	return int(peakSDK.Load()), int(peakTable.Load())
}

// A flood of authenticated initialize requests that never close keeps at
// most MaxSessions sessions alive (the least recently used idle one is
// evicted for each new one) and the heap bounded.
func TestServeSessionFloodIsCapped(t *testing.T) {
	h := newHTTPServe(t, "http")
	before := heapInUse()
	maxSDK, maxTable := floodInitialize(t, h, 3000, 4)
	grew := int64(heapInUse()) - int64(before)
	t.Logf("peak sessions: SDK %d, table %d; heap growth %d KiB", maxSDK, maxTable, grew>>10)
	if maxSDK > MaxSessions || maxTable > MaxSessions {
		t.Fatalf("peak sessions SDK %d / table %d over the cap %d", maxSDK, maxTable, MaxSessions)
	}
	if n := h.sdkSessions(); n != MaxSessions {
		t.Fatalf("%d sessions after the flood, want the cap %d (the newest)", n, MaxSessions)
	}
	if grew > 64<<20 {
		t.Fatalf("heap grew %d MiB under the flood", grew>>20)
	}
}

// A session unused for SessionIdleTimeout is closed by the sweep.
func TestServeIdleSessionsAreClosed(t *testing.T) {
	for _, tr := range []string{"http", "sse"} {
		t.Run(tr, func(t *testing.T) {
			h := newHTTPServe(t, tr)
			hc := &http.Client{Transport: bearer{h.token, http.DefaultTransport}}
			var ct mcp.Transport = &mcp.StreamableClientTransport{Endpoint: h.url, HTTPClient: hc}
			if tr == "sse" {
				ct = &mcp.SSEClientTransport{Endpoint: h.url, HTTPClient: hc}
			}
			cs, err := newTestClient(&elicitAnswer{}).Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}) // sessions are the legacy era's
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			h.settle(1)
			if h.sdkSessions() != 1 {
				t.Fatalf("%d sessions", h.sdkSessions())
			}
			// What the client sent on connecting (notifications/initialized
			// included, which the server may handle after Connect returned)
			// is handled before the clock moves: otherwise, under load, it
			// touched the session after the clock had moved, and the session
			// was rightly not yet idle. A ping answered and nothing in
			// flight means the server is done with them.
			if err := cs.Ping(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(10 * time.Second); ; {
				h.sessions.mu.Lock()
				busy := 0
				for _, rec := range h.sessions.live {
					busy += rec.inflight
				}
				h.sessions.mu.Unlock()
				if busy == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%d requests still in flight", busy)
				}
				time.Sleep(5 * time.Millisecond)
			}
			// the session was linked to its admission: one registered
			// session, no ticket left open, bound to the bearer identity
			h.sessions.mu.Lock()
			var binds []string
			for _, rec := range h.sessions.live {
				binds = append(binds, rec.bind)
			}
			open := len(h.sessions.open)
			h.sessions.mu.Unlock()
			if len(binds) != 1 || open != 0 || !strings.HasSuffix(binds[0], " bearer:"+h.tokenID) || strings.Contains(binds[0], h.token) {
				t.Fatalf("bindings %q, %d tickets open", binds, open)
			}
			h.clk.advance(SessionIdleTimeout - time.Second)
			h.sessions.sweep()
			if h.sdkSessions() != 1 {
				t.Fatal("a session idle for less than the timeout was closed")
			}
			h.clk.advance(time.Second)
			h.sessions.sweep()
			if n, live := h.sdkSessions(), h.sessions.Live(); n != 0 || live != 0 {
				t.Fatalf("idle session not closed: SDK %d, table %d", n, live)
			}
		})
	}
}

// When every live session has a request in flight, a new one is refused
// (503, a JSON-RPC error carrying E427, audited); a busy session is never cut.
// Once one is idle again, the new session evicts the least recently used.
func TestServeSessionCapRefusesWhenAllBusy(t *testing.T) {
	for _, tr := range []string{"http", "sse"} {
		t.Run(tr, func(t *testing.T) {
			h := newHTTPServe(t, tr)
			h.sessions.max = 2
			release := make(chan struct{})
			var releaseOnce sync.Once
			unblock := func() { releaseOnce.Do(func() { close(release) }) }
			defer unblock() // a failed check never leaves a call blocked
			entered := make(chan struct{}, 2)
			mcp.AddTool(h.server, &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
				entered <- struct{}{}
				select {
				case <-release:
				case <-ctx.Done():
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
			})
			hc := &http.Client{Transport: bearer{h.token, http.DefaultTransport}}
			connect := func() (*mcp.ClientSession, error) {
				var ct mcp.Transport = &mcp.StreamableClientTransport{Endpoint: h.url, HTTPClient: hc, MaxRetries: -1}
				if tr == "sse" {
					ct = &mcp.SSEClientTransport{Endpoint: h.url, HTTPClient: hc}
				}
				// Pinned to 2025-11-25 like relavium's own client: the go-sdk
				// default first probes with server/discover, whose short-lived
				// session would share the two slots this test counts exactly
				// (TestServeIdleSessionsAreClosed covers a client that probes).
				return newTestClient(&elicitAnswer{}).Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			}
			var busy []*mcp.ClientSession
			var calls sync.WaitGroup
			failed := make(chan error, 2)
			for i := 0; i < 2; i++ {
				cs, err := connect()
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				busy = append(busy, cs)
				calls.Add(1)
				go func() {
					defer calls.Done()
					if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "block", Arguments: map[string]any{}}); err != nil {
						failed <- err
					}
				}()
			}
			for range 2 { // both calls in flight, or the call that failed says why
				select {
				case <-entered:
				case err := <-failed:
					t.Fatalf("a blocking call ended before it started: %v", err)
				}
			}

			var resp *http.Response
			var err error
			if tr == "sse" {
				req, _ := http.NewRequest("GET", h.url, nil)
				req.Header.Set("Accept", "text/event-stream")
				resp, err = hc.Do(req)
			} else {
				req, _ := http.NewRequest("POST", h.url, strings.NewReader(initializeBody))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				resp, err = hc.Do(req)
			}
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var doc struct {
				ID    any `json:"id"`
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
					Data    struct {
						Code fault.Code `json:"code"`
					} `json:"data"`
				} `json:"error"`
			}
			if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" ||
				json.Unmarshal(body, &doc) != nil || doc.Error.Data.Code != CodeSessionsFull || !strings.HasPrefix(doc.Error.Message, string(CodeSessionsFull)+": ") {
				t.Fatalf("all busy: %d %s", resp.StatusCode, body)
			}
			if n := h.sdkSessions(); n != 2 {
				t.Fatalf("a busy session was cut: %d left", n)
			}
			found := false
			for _, r := range auditLines(t, h.home) {
				if r["decision"] == DecisionRefused && r["error_code"] == string(CodeSessionsFull) && r["transport"] == string(transportOf(tr)) {
					found = true
				}
			}
			if !found {
				t.Fatalf("the refusal was not audited: %v", auditLines(t, h.home))
			}

			unblock()
			calls.Wait()
			h.clk.advance(time.Second)
			// busy[1] is used again, so busy[0] is the least recently used
			if _, err := busy[1].ListTools(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			cs, err := connect()
			if err != nil {
				t.Fatalf("a new session once one is idle: %v", err)
			}
			defer cs.Close()
			h.settle(2)
			if n := h.sdkSessions(); n != 2 {
				t.Fatalf("%d sessions, want the cap", n)
			}
			if _, err := busy[1].ListTools(context.Background(), nil); err != nil {
				t.Fatalf("the recently used session was evicted: %v", err)
			}
			if _, err := busy[0].ListTools(context.Background(), nil); err == nil {
				t.Fatal("the least recently used session survived the eviction")
			}
		})
	}
}

// BenchmarkRatioSessionFlood sends 20 000 authenticated initialize requests
// that never close to an in-process `mcp serve --transport http` and reports
// the heap in use after them against the heap after one. Target: the growth
// is what MaxSessions sessions cost, well under 64 MiB; expressed as a ratio
// to the one-session heap plus 64 MiB of headroom.
func BenchmarkRatioSessionFlood(b *testing.B) {
	for i := 0; i < b.N; i++ {
		h := newHTTPServe(b, "http")
		c := &http.Client{}
		if code, body := h.initialize(b, c); code != http.StatusOK {
			b.Fatalf("%d %s", code, body)
		}
		one := heapInUse()
		maxSDK, _ := floodInitialize(b, h, 20000, 4)
		after := heapInUse()
		if maxSDK > MaxSessions {
			b.Fatalf("%d sessions, over the cap", maxSDK)
		}
		b.ReportMetric(float64(one)/(1<<20), "heap1-MiB")
		b.ReportMetric(float64(after)/(1<<20), "heap20k-MiB")
		b.ReportMetric(float64(after)/float64(one), "ratio")
		b.ReportMetric(float64(one+64<<20)/float64(one), "target")
		b.ReportMetric(float64(maxSDK), "peak-sessions")
	}
}

// The HTTP layer's refusals are audit-logged like every other refusal: a
// bad or missing token (401, E426), a Host or Origin not allowed (403,
// E433) and an oversize body (413, E434); never the token or the body.
// 401 lines are bounded per minute.
func TestServeHTTPRefusalsAreAudited(t *testing.T) {
	h := newHTTPServe(t, "http")
	var stderr strings.Builder
	h.iv.Stderr = &stderr
	send := func(token, host, origin string, body string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", h.url, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		token, host, origin, body string
		status                    int
		code                      fault.Code
	}{
		{"wrong-token-value", "", "", initializeBody, http.StatusUnauthorized, inbound.CodeToken},
		{"", "", "", initializeBody, http.StatusUnauthorized, inbound.CodeToken},
		{h.token, "evil.example.com", "", initializeBody, http.StatusForbidden, inbound.CodeForbiddenHost},
		{h.token, "", "http://evil.example.com", initializeBody, http.StatusForbidden, inbound.CodeForbiddenHost},
		{h.token, "", "", strings.Repeat(" ", inbound.MaxBodyBytes+1), http.StatusRequestEntityTooLarge, inbound.CodeBodyTooLarge},
	} {
		before := len(auditLines(t, h.home))
		if got := send(c.token, c.host, c.origin, c.body); got != c.status {
			t.Fatalf("%+v: status %d", c.code, got)
		}
		recs := auditLines(t, h.home)
		if len(recs) != before+1 {
			t.Fatalf("%s: %d new audit lines, want 1", c.code, len(recs)-before)
		}
		r := recs[len(recs)-1]
		if r["decision"] != DecisionRefused || r["error_code"] != string(c.code) || r["transport"] != string(TransportMCPHTTP) ||
			r["command"] != "" || r["side_effect"] != string(cli.Destructive) || r["exit_code"] != nil {
			t.Fatalf("%s: audit line %v", c.code, r)
		}
	}
	raw, _ := os.ReadFile(h.iv.Audit.Path)
	if strings.Contains(string(raw), "wrong-token-value") || strings.Contains(string(raw), h.token) || strings.Contains(string(raw), "evil.example.com") {
		t.Fatal("the audit log holds a token or a header")
	}

	// at most unauthAuditPerMinute 401 lines a minute; the rest is counted on stderr
	h.clk.advance(time.Minute)
	before := len(auditLines(t, h.home))
	for i := 0; i < unauthAuditPerMinute+15; i++ {
		if send("nope", "", "", "{}") != http.StatusUnauthorized {
			t.Fatal("401 expected")
		}
	}
	if n := len(auditLines(t, h.home)) - before; n != unauthAuditPerMinute {
		t.Fatalf("%d 401 lines in a minute, want %d", n, unauthAuditPerMinute)
	}
	h.clk.advance(time.Minute)
	send("nope", "", "", "{}")
	if n := len(auditLines(t, h.home)) - before; n != unauthAuditPerMinute+1 || !strings.Contains(stderr.String(), "15 more unauthenticated requests") {
		t.Fatalf("after the minute: %d lines, stderr %q", n, stderr.String())
	}
}
