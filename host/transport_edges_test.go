package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/stream"
)

// A server whose Mcp-Session-Id is 61 000 bytes long fails its start with
// the guard's E571, and the id appears nowhere in the failure.
func TestOversizeSessionIDFailsTheStart(t *testing.T) {
	// Stateless: the server keeps no session the refused client cannot end.
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return inprocServer() }, &mcp.StreamableHTTPOptions{Stateless: true})
	id := strings.Repeat("Q", 61000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner.ServeHTTP(&fixedSessionID{ResponseWriter: w, id: id}, r)
	}))
	t.Cleanup(srv.Close)
	g := netguard.New()
	_, err := Start(context.Background(), Options{Guard: g, Servers: []Endpoint{networkServer(t, g, "n", TransportHTTP, srv.URL+"/mcp")}})
	var se *StartError
	if !errors.As(err, &se) || len(se.Servers) != 1 {
		t.Fatalf("err = %v", err)
	}
	if row := se.Servers[0]; row.ErrorCode != netguard.CodeSessionID || row.Refusal == nil || row.Refusal.Reason != netguard.ReasonSessionID {
		t.Fatalf("row = %+v", row)
	}
	var human strings.Builder
	_ = se.WriteHuman(&human)
	for _, s := range []string{err.Error(), human.String(), se.Servers[0].Error} {
		if strings.Contains(s, "QQQQ") {
			t.Fatalf("the server's session id is echoed (%d bytes)", len(s))
		}
	}
}

// fixedSessionID keeps the server's session id header at id whatever the
// SDK sets, from the first response (initialize) on.
type fixedSessionID struct {
	http.ResponseWriter
	id    string
	wrote bool
}

func (w *fixedSessionID) WriteHeader(code int) {
	if !w.wrote {
		w.wrote = true
		w.Header().Set("Mcp-Session-Id", w.id)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *fixedSessionID) Write(p []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}

func (w *fixedSessionID) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// A result nested past nesting.MessageDepth fails its call with E572,
// typed, on Streamable HTTP and on legacy SSE.
func TestDeepResultDuringACallIsTheGuardsRefusal(t *testing.T) {
	s := inprocServer()
	s.AddTool(&mcp.Tool{Name: "deep", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var v any = 1
			for range 2000 {
				v = []any{v}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "x"}}, StructuredContent: v}, nil
		})
	base := serveHTTP(t, s)
	for _, tc := range []struct{ transport, url string }{{TransportHTTP, base + "/mcp"}, {TransportSSE, base + "/sse"}} {
		t.Run(tc.transport, func(t *testing.T) {
			g := netguard.New()
			h := startHost(t, Options{Guard: g, Servers: []Endpoint{networkServer(t, g, "n", tc.transport, tc.url)}})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := callTool(t, h, ctx, "mcp_n_deep", `{}`, engine.CallOptions{})
			if codeOf(err) != netguard.CodeMessageDepth {
				t.Fatalf("a deep result: %v, want %s", err, netguard.CodeMessageDepth)
			}
		})
	}
}

// A stdio server's message nested past nesting.MessageDepth is refused
// before the SDK decodes it: the call fails with E518, the server is failed
// with it, and nothing of it is left running. A message at the cap passes.
func TestStdioMessageDepth(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "d", "ok")}})
	// The envelope adds {"result":{"structuredContent": …}}: 2 levels.
	res, err := callTool(t, h, context.Background(), "mcp_d_deep", `{"levels":510}`, engine.CallOptions{})
	if err != nil || res.Structured == nil {
		t.Fatalf("a message at the cap: %v", err)
	}
	pid := h.Servers()[0].PID
	_, err = callTool(t, h, context.Background(), "mcp_d_deep", `{"levels":5000}`, engine.CallOptions{})
	if codeOf(err) != stream.CodeMessageDepth {
		t.Fatalf("a message 5000 deep: %v, want %s", err, stream.CodeMessageDepth)
	}
	row := h.Servers()[0]
	for end := time.Now().Add(20 * time.Second); row.State != engine.StateFailed && time.Now().Before(end); row = h.Servers()[0] {
		time.Sleep(10 * time.Millisecond)
	}
	if row.State != engine.StateFailed || row.ErrorCode != stream.CodeMessageDepth {
		t.Errorf("server row after the refusal: %+v", row)
	}
	_ = h.Close()
	assertNoProcesses(t, pid)
}

// crWriter rewrites the LF line endings of an event stream into nl.
type crWriter struct {
	http.ResponseWriter
	nl string
}

func (w *crWriter) Write(p []byte) (int, error) {
	if !strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		return w.ResponseWriter.Write(p)
	}
	if _, err := w.ResponseWriter.Write([]byte(strings.ReplaceAll(string(p), "\n", w.nl))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *crWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Through the host (its transports, its event size, the legacy SSE
// wrapper), servers whose events end in CR, CRLF or LF all work, small
// events and 3 MiB ones alike.
func TestSSELineEndingsThroughTheHost(t *testing.T) {
	s := inprocServer()
	s.AddTool(&mcp.Tool{Name: "blob", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Bytes int }
			_ = json.Unmarshal(req.Params.Arguments, &in)
			// Image data: text over 1 MiB is refused by the host (E512);
			// an event of 3 MiB is not.
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: []byte(strings.Repeat("b", in.Bytes))}}}, nil
		})
	get := func(*http.Request) *mcp.Server { return s }
	for name, nl := range map[string]string{"CR": "\r", "CRLF": "\r\n", "LF": "\n"} {
		mux := http.NewServeMux()
		mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(get, nil))
		mux.Handle("/sse", mcp.NewSSEHandler(get, nil))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mux.ServeHTTP(&crWriter{ResponseWriter: w, nl: nl}, r)
		}))
		t.Cleanup(srv.Close)
		for _, tc := range []struct{ transport, path string }{{TransportHTTP, "/mcp"}, {TransportSSE, "/sse"}} {
			t.Run(name+"/"+tc.transport, func(t *testing.T) {
				g := netguard.New()
				h := startHost(t, Options{Guard: g, Servers: []Endpoint{networkServer(t, g, "n", tc.transport, srv.URL+tc.path)}})
				// 2.25 MiB of image data: an event of 3 MiB in base64.
				for _, n := range []int{5, 9 << 18, 5} {
					res, err := callTool(t, h, context.Background(), "mcp_n_blob", fmt.Sprintf(`{"bytes":%d}`, n), engine.CallOptions{})
					if err != nil {
						t.Fatalf("a %d-byte result: %v", n, err)
					}
					if got := len(res.Content[0].Data); got != n {
						t.Fatalf("a %d-byte result came as %d bytes", n, got)
					}
				}
				_ = h.Close()
			})
		}
	}
}
