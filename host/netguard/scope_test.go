package netguard

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An opt-in for one port does not reach another port on the same host, nor
// another host, even through the client the guard built for it.
func TestOptInIsScopedToHostPort(t *testing.T) {
	admitted := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	other := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	g := New()
	tg := localTarget(t, g, admitted.URL, "/mcp", TransportHTTP)
	c := g.HTTPClient(tg)
	defer c.CloseIdleConnections()

	if _, err := get(t, c, tg.URL()); err != nil {
		t.Fatalf("the admitted url failed: %v", err)
	}
	otherPort := other.URL + "/mcp"
	for _, u := range []string{
		otherPort,
		strings.Replace(admitted.URL, "127.0.0.1", "localhost", 1) + "/mcp", // same port, other host spelling
		strings.Replace(admitted.URL, "http://", "https://", 1) + "/mcp",    // other scheme
		"http://user@" + strings.TrimPrefix(admitted.URL, "http://") + "/",  // userinfo
	} {
		_, err := get(t, c, u)
		r, ok := AsRefusal(err)
		if !ok || r.Code() != CodeScope {
			t.Fatalf("%s: err = %v, want %s", u, err, CodeScope)
		}
	}
	if n := other.hits.Load(); n != 0 {
		t.Fatalf("the other port saw %d requests", n)
	}
	if n := admitted.hits.Load(); n != 1 {
		t.Fatalf("the admitted server saw %d requests, want 1", n)
	}
}

// The dial itself refuses a host:port other than the admitted one, even if a
// request slipped past the origin check.
func TestDialRefusesOtherHostPort(t *testing.T) {
	rec := &recordingDialer{}
	g := New(WithResolver(newFakeResolver()), WithDialer(rec))
	tg, err := g.Admit("http://127.0.0.1:4000/", TransportHTTP, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{"127.0.0.1:6379", "127.0.0.1:5432", "127.0.0.1:22", "localhost:4000", "garbage"} {
		_, err := g.dial(context.Background(), tg, "tcp", addr)
		if r, ok := AsRefusal(err); !ok || r.Code() != CodeScope {
			t.Fatalf("dial %s: %v, want %s", addr, err, CodeScope)
		}
	}
	if got := rec.recorded(); len(got) != 0 {
		t.Fatalf("dialled %q", got)
	}
}

// The legacy SSE transport takes the POST endpoint from the server's
// `endpoint` event, which may name any host (the SDK does not check it). Through the
// guard, an endpoint on another origin is refused before any request reaches it.
func TestLegacySSEEndpointMustStayOnOrigin(t *testing.T) {
	elsewhere := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(202) })
	for name, endpoint := range map[string]string{
		"other port":   elsewhere.URL + "/message?sessionId=1",
		"metadata":     "http://169.254.169.254/latest/meta-data/",
		"other scheme": "https://127.0.0.1:1/message",
	} {
		t.Run(name, func(t *testing.T) {
			sse := newSSEServer(t, endpoint)
			g := New()
			tg := localTarget(t, g, sse.URL, "/sse", TransportSSE)
			hc := g.HTTPClient(tg)
			defer hc.CloseIdleConnections()
			client := mcp.NewClient(&mcp.Implementation{Name: "netguard-test", Version: "0"}, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cs, err := client.Connect(ctx, &mcp.SSEClientTransport{Endpoint: tg.URL(), HTTPClient: hc, MaxEventSize: MessageLimit}, nil)
			if err == nil {
				cs.Close()
				t.Fatal("connected with an off-origin endpoint")
			}
			r := tg.Refusal()
			if r == nil || r.Code() != CodeScope {
				t.Fatalf("target refusal = %v, want %s (sdk: %v)", r, CodeScope, err)
			}
			if elsewhere.hits.Load() != 0 {
				t.Fatalf("the off-origin endpoint saw %d requests", elsewhere.hits.Load())
			}
		})
	}
}

// newSSEServer serves a legacy SSE stream whose endpoint event is endpoint,
// then holds the stream until the client goes away.
func newSSEServer(t *testing.T, endpoint string) *countingServer {
	return newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: endpoint\ndata: %s\n\n", endpoint)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
}

// A same-origin endpoint works: the session connects and lists tools through
// the guard (a real go-sdk server on loopback).
func TestLegacySSEThroughGuardWorks(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo"}, func(ctx context.Context, req *mcp.CallToolRequest, in struct {
		Text string `json:"text"`
	}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	h := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil)
	s := newCountingServer(t, h.ServeHTTP)
	g := New()
	tg := localTarget(t, g, s.URL, "/", TransportSSE)
	hc := g.HTTPClient(tg)
	defer hc.CloseIdleConnections()
	client := mcp.NewClient(&mcp.Implementation{Name: "netguard-test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.SSEClientTransport{Endpoint: tg.URL(), HTTPClient: hc, MaxEventSize: MessageLimit}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "through the guard"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "through the guard" {
		t.Fatalf("echo = %q", got)
	}
	if r := tg.Refusal(); r != nil {
		t.Fatalf("refusal recorded on a healthy session: %v", r)
	}
}
