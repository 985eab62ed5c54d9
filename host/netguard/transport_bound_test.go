package netguard

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// readAll fetches u with c and drains the body.
func readAll(t *testing.T, c *http.Client, u string) (int, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	return int(n), err
}

func TestTransportBoundOverHTTP(t *testing.T) {
	const mib = 1 << 20
	sseEvent := func(nl string, size int) []byte {
		head := "event: message" + nl + "data: "
		tail := nl + nl
		return []byte(head + strings.Repeat("x", size-len(head)-len(tail)) + tail)
	}
	cases := []struct {
		name, contentType string
		body              func() []byte
		over              bool
	}{
		{"sse: eight events of exactly 4 MiB (LF)", "text/event-stream", func() []byte { return bytes.Repeat(sseEvent("\n", MessageLimit), 8) }, false},
		{"sse: eight events of exactly 4 MiB (CRLF)", "text/event-stream", func() []byte { return bytes.Repeat(sseEvent("\r\n", MessageLimit), 8) }, false},
		{"sse: eight events of exactly 4 MiB (CR)", "text/event-stream; charset=utf-8", func() []byte { return bytes.Repeat(sseEvent("\r", MessageLimit), 8) }, false},
		{"sse: one event one byte over", "text/event-stream", func() []byte {
			return append(sseEvent("\n", mib), sseEvent("\n", MessageLimit+1)...)
		}, true},
		{"sse: CRLF lines and no blank line", "text/event-stream", func() []byte {
			return bytes.Repeat([]byte("data: 0123456789abcdef\r\n"), MessageLimit/24+1)
		}, true},
		{"json: exactly 4 MiB", "application/json", func() []byte { return bytes.Repeat([]byte(" "), MessageLimit) }, false},
		{"json: 4 MiB of whitespace and one byte", "application/json", func() []byte {
			return append(bytes.Repeat([]byte("\n\n"), MessageLimit/2), '{')
		}, true},
		{"no content type: one message", "", func() []byte { return bytes.Repeat([]byte("\r\n\r\n"), MessageLimit/4+1) }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := c.body()
			s := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
				if c.contentType != "" {
					w.Header().Set("Content-Type", c.contentType)
				} else {
					w.Header()["Content-Type"] = nil // no sniffing
				}
				for chunk := range slices.Chunk(body, 64<<10) {
					if _, err := w.Write(chunk); err != nil {
						return
					}
				}
			})
			g := New()
			tg := localTarget(t, g, s.URL, "/", TransportHTTP)
			hc := g.HTTPClient(tg)
			defer hc.CloseIdleConnections()
			n, err := readAll(t, hc, tg.URL())
			if !c.over {
				if want := len(wantOut(c.contentType, body)); err != nil || n != want {
					t.Fatalf("read %d of %d bytes: %v", n, want, err)
				}
				return
			}
			if !isCode(err, CodeMessageBound) {
				t.Fatalf("read %d bytes, err %v, want %s", n, err, CodeMessageBound)
			}
			if n >= len(body) {
				t.Fatalf("the whole %d-byte body came through the bound", n)
			}
		})
	}
}

// A tool result larger than the bound fails the call with the typed error;
// the session still serves a normal call before it. Real go-sdk server, real
// Streamable HTTP, through the guard's client.
func TestStreamableHTTPOversizedResultFailsTheCall(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "blob"}, func(ctx context.Context, req *mcp.CallToolRequest, in struct {
		Bytes int `json:"bytes"`
	}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("a", in.Bytes)}}}, nil, nil
	})
	for _, jsonResponse := range []bool{false, true} {
		t.Run(fmt.Sprintf("json-response=%v", jsonResponse), func(t *testing.T) {
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
			s := newCountingServer(t, h.ServeHTTP)
			g := New()
			tg := localTarget(t, g, s.URL, "/mcp", TransportHTTP)
			hc := g.HTTPClient(tg)
			defer hc.CloseIdleConnections()
			client := mcp.NewClient(&mcp.Implementation{Name: "netguard-test", Version: "0"}, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: tg.URL(), HTTPClient: hc, MaxRetries: -1, MaxEventSize: MessageLimit, DisableStandaloneSSE: true},
				&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "blob", Arguments: map[string]any{"bytes": 1 << 20}}); err != nil {
				t.Fatalf("a 1 MiB result failed: %v", err)
			}
			if r := tg.Refusal(); r != nil {
				t.Fatalf("refusal on a healthy call: %v", r)
			}
			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "blob", Arguments: map[string]any{"bytes": MessageLimit}})
			if err == nil {
				t.Fatal("a result over the transport bound came through")
			}
			if r := tg.Refusal(); r == nil || r.Code() != CodeMessageBound {
				t.Fatalf("target refusal = %v, want %s (sdk: %v)", r, CodeMessageBound, err)
			}
		})
	}
}
