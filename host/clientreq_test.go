package host

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/failure"
)

// logCollector is a call's OnLog.
type logCollector struct {
	mu      sync.Mutex
	entries []engine.LogEntry
}

func (l *logCollector) onLog(e engine.LogEntry) {
	l.mu.Lock()
	l.entries = append(l.entries, e)
	l.mu.Unlock()
}

func (l *logCollector) n() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}

func TestLogsOfTheOnlyCallInFlightGoToIt(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{memoryServer(t, "m", inprocServer())}})
	var got logCollector
	if _, err := callTool(t, h, context.Background(), "mcp_m_log", `{"n":3}`, engine.CallOptions{OnLog: got.onLog}); err != nil {
		t.Fatal(err)
	}
	// Read in wire order and delivered before Call returned.
	if got.n() != 3 {
		t.Fatalf("the call got %d logs, want 3", got.n())
	}
	if n := len(rec.ofType(engine.EventToolLog)); n != 0 {
		t.Errorf("%d logs went to the server, want 0", n)
	}
	if e := got.entries[2]; e.Server != "m" || e.Level != "info" || string(e.Data) != `"line 3"` {
		t.Errorf("entry = %+v", e)
	}
}

func TestLogsDuringTwoCallsGoToTheServer(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{memoryServer(t, "m", inprocServer())}})
	ctx, cancel := context.WithCancel(context.Background())
	var slowLogs, logLogs logCollector
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = callTool(t, h, ctx, "mcp_m_slow", `{"ms":30000}`, engine.CallOptions{OnLog: slowLogs.onLog})
	}()
	c := h.connNamed("m")
	waitFor(t, func() bool { return c.logs.InFlight() == 1 })
	if _, err := callTool(t, h, context.Background(), "mcp_m_log", `{"n":2}`, engine.CallOptions{OnLog: logLogs.onLog}); err != nil {
		t.Fatal(err)
	}
	cancel()
	<-done
	if slowLogs.n() != 0 || logLogs.n() != 0 {
		t.Errorf("logs put under a call while two were in flight: slow %d, log %d", slowLogs.n(), logLogs.n())
	}
	logs := rec.ofType(engine.EventToolLog)
	if len(logs) != 2 {
		t.Fatalf("%d server logs, want 2", len(logs))
	}
	if d := logs[0].Data.(engine.ToolLogData); d.CallID != "" || d.Server != "m" {
		t.Errorf("server log = %+v", d)
	}
}

func TestSetLogLevel(t *testing.T) {
	rec := &recorder{}
	quiet := mcp.NewServer(&mcp.Implementation{Name: "quiet", Version: "1"}, &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{}})
	mcp.AddTool(quiet, &mcp.Tool{Name: "noop"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{memoryServer(t, "m", inprocServer()), memoryServer(t, "q", quiet)}})
	ctx := context.Background()
	if err := h.SetLogLevel(ctx, "m", "error"); err != nil {
		t.Fatal(err)
	}
	callText(t, h, "mcp_m_log", `{"n":2}`)
	if n := len(rec.ofType(engine.EventToolLog)); n != 0 {
		t.Fatalf("%d info logs at level error, want 0", n)
	}
	if err := h.SetLogLevel(ctx, "m", "debug"); err != nil {
		t.Fatal(err)
	}
	callText(t, h, "mcp_m_log", `{"n":2}`)
	if n := len(rec.ofType(engine.EventToolLog)); n != 2 {
		t.Fatalf("%d logs at level debug, want 2", n)
	}
	if err := h.SetLogLevel(ctx, "m", "verbose"); codeOf(err) != failure.CodeLogLevelUnknown {
		t.Errorf("unknown level: %v, want %s", err, failure.CodeLogLevelUnknown)
	}
	if err := h.SetLogLevel(ctx, "q", "debug"); codeOf(err) != failure.CodeNotOffered || !strings.Contains(err.Error(), "logging") {
		t.Errorf("server without logging: %v, want %s", err, failure.CodeNotOffered)
	}
	if LogLevelRank("debug") >= LogLevelRank("warning") || LogLevelRank("whatever") != LogLevelRank("info") {
		t.Error("LogLevelRank does not order the levels")
	}
}

func TestSubscribeReportsUpdatesOfSubscribedURIsOnly(t *testing.T) {
	rec := &recorder{}
	s := mcp.NewServer(&mcp.Implementation{Name: "sub", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	s.AddResource(&mcp.Resource{URI: "test://a", Name: "a"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "a"}}}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "noop"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{memoryServer(t, "s", s), memoryServer(t, "m", inprocServer())}})
	ctx := context.Background()
	if err := h.Subscribe(ctx, "s", "test://a"); err != nil {
		t.Fatal(err)
	}
	if got := h.Subscriptions("s"); len(got) != 1 || got[0] != "test://a" {
		t.Fatalf("Subscriptions = %v", got)
	}
	if err := s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "test://a"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return len(rec.ofType(engine.EventResourceUpdated)) == 1 })
	if d := rec.ofType(engine.EventResourceUpdated)[0].Data.(ResourceUpdatedData); d.Server != "s" || d.URI != "test://a" {
		t.Errorf("update = %+v", d)
	}
	// A uri never subscribed to is not reported, whatever the server says.
	h.connNamed("s").onResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationRequest{Params: &mcp.ResourceUpdatedNotificationParams{URI: "test://other"}})
	if err := h.Unsubscribe(ctx, "s", "test://a"); err != nil {
		t.Fatal(err)
	}
	h.connNamed("s").onResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationRequest{Params: &mcp.ResourceUpdatedNotificationParams{URI: "test://a"}})
	if n := len(rec.ofType(engine.EventResourceUpdated)); n != 1 || len(h.Subscriptions("s")) != 0 {
		t.Errorf("%d updates after unsubscribing / for an unsubscribed uri, want 1; subscriptions %v", n, h.Subscriptions("s"))
	}
	if err := h.Subscribe(ctx, "m", "test://a"); codeOf(err) != failure.CodeNotOffered {
		t.Errorf("server without resources.subscribe: %v, want %s", err, failure.CodeNotOffered)
	}
}

func TestCompleteKeepsOnlyShowableValues(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "comp", Version: "1"}, &mcp.ServerOptions{
		CompletionHandler: func(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			p := req.Params
			vals := []string{p.Ref.Type + ":" + p.Ref.Name + p.Ref.URI + ":" + p.Argument.Name + "=" + p.Argument.Value,
				"ctx=" + p.Context.Arguments["lang"], "red\x1b[31m", strings.Repeat("x", 2000), "tab\there"}
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: vals, Total: 9}}, nil
		},
	})
	s.AddPrompt(&mcp.Prompt{Name: "p", Arguments: []*mcp.PromptArgument{{Name: "lang"}, {Name: "x"}}}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "noop"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	h := startHost(t, Options{Servers: []Endpoint{memoryServer(t, "c", s), memoryServer(t, "m", inprocServer())}})
	ctx := context.Background()
	got, err := h.Complete(ctx, "c", CompletionRef{Type: RefPrompt, Name: "p"}, "x", "ab", map[string]string{"lang": "go"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ref/prompt:p:x=ab", "ctx=go"}
	if strings.Join(got.Values, "|") != strings.Join(want, "|") || got.Dropped != 3 || got.Total != 9 {
		t.Errorf("completion = %+v, want values %v, 3 dropped, total 9", got, want)
	}
	if _, err := h.Complete(ctx, "m", CompletionRef{Type: RefPrompt, Name: "p"}, "x", "", nil); codeOf(err) != failure.CodeNotOffered {
		t.Errorf("server without completions: %v, want %s", err, failure.CodeNotOffered)
	}
	if _, err := h.Complete(ctx, "c", CompletionRef{Type: "ref/tool"}, "x", "", nil); codeOf(err) != failure.CodeBadCompletionRef {
		t.Errorf("bad reference: %v, want %s", err, failure.CodeBadCompletionRef)
	}
}
