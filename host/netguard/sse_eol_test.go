package netguard

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// eolWriter rewrites the LF line endings of an event stream the go-sdk
// server writes into another spelling (CR or CRLF), so a real server speaks
// every line-ending form the SSE format allows. JSON data never holds a raw
// LF, so only line endings are touched.
type eolWriter struct {
	http.ResponseWriter
	nl string
}

func (w *eolWriter) Write(p []byte) (int, error) {
	if !strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		return w.ResponseWriter.Write(p)
	}
	if _, err := w.ResponseWriter.Write(bytes.ReplaceAll(p, []byte("\n"), []byte(w.nl))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *eolWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *eolWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// blobServer is a go-sdk server with a tool that returns n bytes of text.
func blobServer() *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "blob"}, func(ctx context.Context, req *mcp.CallToolRequest, in struct {
		Bytes int `json:"bytes"`
	}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("a", in.Bytes)}}}, nil, nil
	})
	return server
}

// Events ended by LF, CRLF or a lone CR all work, small ones and ones of
// 3 MiB (under the 4 MiB bound, which resets at each event boundary), on
// Streamable HTTP's SSE responses and on the legacy SSE transport: real
// go-sdk server and client, through the guard's client on loopback.
func TestSSELineEndingsOverRealTransports(t *testing.T) {
	server := blobServer()
	handlers := map[string]http.Handler{
		TransportHTTP: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil),
		TransportSSE:  mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil),
	}
	for _, transport := range []string{TransportHTTP, TransportSSE} {
		for name, nl := range eol {
			t.Run(transport+"/"+name, func(t *testing.T) {
				h := handlers[transport]
				s := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
					h.ServeHTTP(&eolWriter{ResponseWriter: w, nl: nl}, r)
				})
				g := New()
				tg := localTarget(t, g, s.URL, "/", transport)
				hc := g.HTTPClient(tg)
				defer hc.CloseIdleConnections()
				var tr mcp.Transport = &mcp.StreamableClientTransport{Endpoint: tg.URL(), HTTPClient: hc, MaxRetries: -1, MaxEventSize: MessageLimit, DisableStandaloneSSE: true}
				if transport == TransportSSE {
					tr = &mcp.SSEClientTransport{Endpoint: tg.URL(), HTTPClient: hc, MaxEventSize: MessageLimit}
				}
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				client := mcp.NewClient(&mcp.Implementation{Name: "netguard-test", Version: "0"}, nil)
				cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
				if err != nil {
					t.Fatalf("connect: %v (refusal %v)", err, tg.Refusal())
				}
				defer cs.Close()
				for _, n := range []int{10, 3 << 20, 10, 3 << 20} {
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "blob", Arguments: map[string]any{"bytes": n}})
					if err != nil {
						t.Fatalf("a %d-byte result: %v (refusal %v)", n, err, tg.Refusal())
					}
					if got := len(res.Content[0].(*mcp.TextContent).Text); got != n {
						t.Fatalf("a %d-byte result arrived as %d bytes", n, got)
					}
				}
				if r := tg.Refusal(); r != nil {
					t.Fatalf("refusal on healthy traffic: %v", r)
				}
			})
		}
	}
}
