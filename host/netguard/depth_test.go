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

// referenceDepth is the deepest nesting of valid JSON, by encoding/json's
// own tokenizer.
func referenceDepth(data []byte) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	depth, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return deepest
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
			deepest = max(deepest, depth)
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
	}
}

func TestDepthGaugeIsExactOnValidJSON(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 64, 511, 512} {
		doc := []byte(nested(n))
		if !json.Valid(doc) || referenceDepth(doc) != n {
			t.Fatalf("fixture %d is not %d deep", n, n)
		}
		for how, r := range splits(doc) {
			g := &DepthGauge{}
			data, _ := io.ReadAll(r())
			if i := g.Scan(data); i >= 0 || g.Depth() != 0 {
				t.Fatalf("%d deep, %s: refused at %d, depth left %d", n, how, i, g.Depth())
			}
		}
	}
	for _, n := range []int{513, 600, 10000} {
		doc := []byte(nested(n))
		g := &DepthGauge{}
		i := g.Scan(doc)
		if i < 0 {
			t.Fatalf("%d deep passed", n)
		}
		if referenceDepth(doc[:i]) != MaxMessageDepth || doc[i] != '[' && doc[i] != '{' {
			t.Fatalf("%d deep refused at byte %d (%q), not at the bracket opening level %d", n, i, doc[i], MaxMessageDepth+1)
		}
	}
}

// FuzzDepthGauge: on valid JSON the gauge refuses exactly when the
// reference depth is over the cap; on any input, every read split gives the
// same answer at the same byte.
func FuzzDepthGauge(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"]]}}"}]}`), uint8(2), uint64(1))
	f.Add([]byte(`["\\\"[[[", [[]]]`), uint8(1), uint64(2))
	f.Add([]byte(nested(40)), uint8(39), uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, cap8 uint8, seed uint64) {
		limit := int(cap8%64) + 1
		whole := &DepthGauge{Max: limit}
		at := whole.Scan(data)
		if json.Valid(data) {
			if over := referenceDepth(data) > limit; over != (at >= 0) {
				t.Fatalf("valid JSON %d deep, cap %d: refused at %d", referenceDepth(data), limit, at)
			}
		}
		rng := rand.New(rand.NewPCG(seed, seed>>1|1))
		g := &DepthGauge{Max: limit}
		got := -1
		for off := 0; off < len(data); {
			k := min(1+rng.IntN(9), len(data)-off)
			if i := g.Scan(data[off : off+k]); i >= 0 {
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
	deep := nested(MaxMessageDepth)
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
		"data: " + nested(MaxMessageDepth+1) + "\n\n",
		"data: 1\n\ndata: " + half + "\ndata: " + half + "\n\n",
		"event: message\r\ndata: " + nested(MaxMessageDepth+1) + "\r\n\r\n",
		"data: x\r\rdata: " + nested(MaxMessageDepth+1) + "\r\r",
	}
	for i, s := range bad {
		for how, r := range splits([]byte(s)) {
			got, err := readDepth(r(), "text/event-stream")
			if !isCode(err, CodeMessageDepth) {
				t.Fatalf("stream %d, %s: %v, want %s", i, how, err, CodeMessageDepth)
			}
			if bytes.Count(got, []byte("[")) > MaxMessageDepth {
				t.Fatalf("stream %d, %s: %d brackets came through", i, how, bytes.Count(got, []byte("[")))
			}
		}
	}
}

func TestJSONBodyDepth(t *testing.T) {
	if _, err := readDepth(strings.NewReader(nested(MaxMessageDepth)), "application/json"); err != nil {
		t.Fatalf("at the cap: %v", err)
	}
	if _, err := readDepth(strings.NewReader(nested(MaxMessageDepth+1)), "application/json; charset=utf-8"); !isCode(err, CodeMessageDepth) {
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
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deep", Arguments: map[string]any{"levels": MaxMessageDepth - 2}}); err != nil {
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
