package wire

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Message string `json:"message"`
	Token   string `json:"token"`
}

func echoSession(b *testing.B, rec *Recorder) *mcp.ClientSession {
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Message}}}, nil, nil
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, rec.Transport(ct), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

// BenchmarkRatioRecordedCall measures one tools/call with every message
// recorded (classified, paired, redacted: the arguments name a token, so
// the redaction walk runs) against the same call unrecorded, in the same
// run, over an in-process server. Target: ratio <= 1.5.
func BenchmarkRatioRecordedCall(b *testing.B) {
	plain := echoSession(b, nil)
	hub := NewHub("", nil)
	recorded := echoSession(b, hub.Server("echo", nil))
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hello", "token": "s3cret-value"}}
	call := func(cs *mcp.ClientSession) {
		if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
			b.Fatalf("%v %v", err, res)
		}
	}
	call(plain)
	call(recorded)
	var dPlain, dRec time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		call(plain)
		t1 := time.Now()
		call(recorded)
		dRec += time.Since(t1)
		dPlain += t1.Sub(t0)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(dPlain.Microseconds())/n, "plain-us")
	b.ReportMetric(float64(dRec.Microseconds())/n, "recorded-us")
	b.ReportMetric(float64(dRec)/float64(dPlain), "ratio")
	b.ReportMetric(1.5, "target")
	for _, r := range hub.Recent() {
		if r.Method == "tools/call" && r.Kind == KindRequest && !containsRedacted(r.Message) {
			b.Fatalf("the token was recorded: %s", r.Message)
		}
	}
}

func containsRedacted(m []byte) bool {
	return !bytes.Contains(m, []byte("s3cret-value")) && bytes.Contains(m, []byte(redacted))
}
