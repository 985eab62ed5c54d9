package netguard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/nesting"
)

// nested is JSON nesting n levels: arrays and objects alternating, with a
// bracket-laden string at the bottom that must not count.
func nested(n int) string {
	var b strings.Builder
	for i := range n {
		if i%2 == 0 {
			b.WriteString(`[`)
		} else {
			b.WriteString(`{"k\"[{":`)
		}
	}
	b.WriteString(`"[[{{\\\"]]"`)
	for i := n - 1; i >= 0; i-- {
		if i%2 == 0 {
			b.WriteString(`]`)
		} else {
			b.WriteString(`}`)
		}
	}
	return b.String()
}

// readDepth drains body as contentType through a bounded body and returns
// what came through and the error.
func readDepth(r io.Reader, contentType string) ([]byte, error) {
	tg := &Target{shown: "http://x/", host: hostForm{name: "x"}, port: 80}
	b := newBoundedBody(io.NopCloser(r), contentType, MessageLimit,
		func() error { return boundRefusal(tg, contentType, MessageLimit) },
		func() error { return depthRefusal(tg) })
	return io.ReadAll(b)
}

func TestSSEDepthCountsDataOnlyAndResetsPerEvent(t *testing.T) {
	deep := nested(nesting.MessageDepth)
	ok := []string{
		// Field names and other fields' values are not JSON.
		"id: " + strings.Repeat("[", 2000) + "\nevent: {{{{\ndata: " + deep + "\n\n",
		": " + strings.Repeat("{", 2000) + "\ndata: 1\n\n",
		// Each event is its own message: many at the cap, one after another.
		strings.Repeat("data: "+deep+"\n\n", 5),
		// An unterminated string in one event does not leak into the next.
		"data: \"[[[\n\ndata: " + deep + "\n\n",
		// The same with CR and CRLF endings.
		strings.Repeat("data: "+deep+"\r\r", 3) + strings.Repeat("data: "+deep+"\r\n\r\n", 3),
	}
	for i, s := range ok {
		for how, r := range splits([]byte(s)) {
			if _, err := readDepth(r(), "text/event-stream"); err != nil {
				t.Fatalf("stream %d, %s: %v", i, how, err)
			}
		}
	}
	// The data lines of one event are one message: split over lines, the
	// nesting adds up.
	half := strings.Repeat("[", 300)
	bad := []string{
		"data: " + nested(nesting.MessageDepth+1) + "\n\n",
		"data: 1\n\ndata: " + half + "\ndata: " + half + "\n\n",
		"event: message\r\ndata: " + nested(nesting.MessageDepth+1) + "\r\n\r\n",
		"data: x\r\rdata: " + nested(nesting.MessageDepth+1) + "\r\r",
	}
	for i, s := range bad {
		for how, r := range splits([]byte(s)) {
			got, err := readDepth(r(), "text/event-stream")
			if !isCode(err, CodeMessageDepth) {
				t.Fatalf("stream %d, %s: %v, want %s", i, how, err, CodeMessageDepth)
			}
			if bytes.Count(got, []byte("[")) > nesting.MessageDepth {
				t.Fatalf("stream %d, %s: %d brackets came through", i, how, bytes.Count(got, []byte("[")))
			}
		}
	}
}

func TestJSONBodyDepth(t *testing.T) {
	if _, err := readDepth(strings.NewReader(nested(nesting.MessageDepth)), "application/json"); err != nil {
		t.Fatalf("at the cap: %v", err)
	}
	if _, err := readDepth(strings.NewReader(nested(nesting.MessageDepth+1)), "application/json; charset=utf-8"); !isCode(err, CodeMessageDepth) {
		t.Fatalf("over the cap: %v", err)
	}
	// Not JSON (an error page): no depth check.
	if _, err := readDepth(strings.NewReader(strings.Repeat("[", 4096)), "text/plain"); err != nil {
		t.Fatalf("text/plain: %v", err)
	}
}

// deepValue is a Go value n arrays deep.
func deepValue(n int) any {
	var v any = "bottom"
	for range n {
		v = []any{v}
	}
	return v
}

// A server message nested past the cap fails the call with E572 before the
// SDK decodes it; one within the cap passes. Real go-sdk server and client
// over Streamable HTTP (SSE and JSON responses) and legacy SSE.
func TestServerMessageDepthOverRealTransports(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "0"}, nil)
	server.AddTool(&mcp.Tool{Name: "deep", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ Levels int }
		_ = json.Unmarshal(req.Params.Arguments, &in)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "x"}}, StructuredContent: deepValue(in.Levels)}, nil
	})
	cases := map[string]http.Handler{
		"http-sse":  mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil),
		"http-json": mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{JSONResponse: true}),
		"sse":       mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil),
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			s := newCountingServer(t, h.ServeHTTP)
			g := New()
			transport := TransportHTTP
			if name == "sse" {
				transport = TransportSSE
			}
			tg := localTarget(t, g, s.URL, "/", transport)
			hc := g.HTTPClient(tg)
			defer hc.CloseIdleConnections()
			var tr mcp.Transport = &mcp.StreamableClientTransport{Endpoint: tg.URL(), HTTPClient: hc, MaxRetries: -1, MaxEventSize: MessageLimit, DisableStandaloneSSE: true}
			if transport == TransportSSE {
				tr = &mcp.SSEClientTransport{Endpoint: tg.URL(), HTTPClient: hc, MaxEventSize: MessageLimit}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "netguard-test", Version: "0"}, nil)
			cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			// The envelope adds {"result":{"structuredContent": …}}: 2 levels.
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deep", Arguments: map[string]any{"levels": nesting.MessageDepth - 2}}); err != nil {
				t.Fatalf("a message at the cap: %v (refusal %v)", err, tg.Refusal())
			}
			if r := tg.Refusal(); r != nil {
				t.Fatalf("refusal at the cap: %v", r)
			}
			cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
			defer ccancel()
			_, err = cs.CallTool(cctx, &mcp.CallToolParams{Name: "deep", Arguments: map[string]any{"levels": 5000}})
			if err == nil {
				t.Fatal("a message 5000 deep came through")
			}
			if r := tg.Refusal(); r == nil || r.Code() != CodeMessageDepth {
				t.Fatalf("refusal %v, want %s (sdk: %v)", r, CodeMessageDepth, err)
			}
			if errors.Is(err, context.DeadlineExceeded) && name != "sse" {
				t.Fatalf("the call waited out its deadline: %v", err)
			}
		})
	}
}

// FuzzSSEDepth: for any LF-normalised event stream and any split of it, the
// SSE gauge refuses exactly when a whole-input reference does (events at
// blank lines, data values joined by LF, the JSON scan on each), and at the
// same byte whatever the split. The seed corpus is
// testdata/fuzz/FuzzSSEDepth.
func FuzzSSEDepth(f *testing.F) {
	f.Add([]byte("id: [[[\ndata: [[1]]\n\ndata: [\ndata: [\n\n"), uint8(2), uint64(1))
	f.Add([]byte(": {{{\nevent: x\ndata: \"[[\n\ndata: [[[]]]\n"), uint8(3), uint64(2))
	f.Add([]byte("data:[\ndata\ndatax: [\ndata: ]\n\ndata: [[\n"), uint8(1), uint64(3))
	f.Fuzz(func(t *testing.T, raw []byte, cap8 uint8, seed uint64) {
		data := referenceNormalize(raw)
		limit := int(cap8%16) + 1
		want := referenceSSEOver(data, limit)
		whole := newSSEDepth()
		whole.g.Max = limit
		at := whole.scan(data)
		if (at >= 0) != want {
			t.Fatalf("whole input: refused at %d, reference over=%v (cap %d, %q)", at, want, limit, data)
		}
		rng := rand.New(rand.NewPCG(seed, seed>>1|1))
		split := newSSEDepth()
		split.g.Max = limit
		got := -1
		for off := 0; off < len(data); {
			k := min(1+rng.IntN(9), len(data)-off)
			if i := split.scan(data[off : off+k]); i >= 0 {
				got = off + i
				break
			}
			off += k
		}
		if got != at {
			t.Fatalf("split scan refused at %d, whole at %d (%q)", got, at, data)
		}
	})
}

// referenceSSEOver parses a whole LF-only event stream the SDK's way and
// reports whether any event's data nests past limit.
func referenceSSEOver(data []byte, limit int) bool {
	var event []byte
	over := func() bool {
		_, e := nesting.JSON(event, nesting.Limits{MaxDepth: limit})
		return e != nil
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(line) == 0 {
			if over() {
				return true
			}
			event = event[:0]
			continue
		}
		if name, value, ok := bytes.Cut(line, []byte(":")); ok && string(name) == "data" {
			event = append(append(event, value...), '\n')
		}
	}
	return over()
}
