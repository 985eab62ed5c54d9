package demoserver_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func callWithProgress(t *testing.T, cs *mcp.ClientSession, name string, args any, token string) *mcp.CallToolResult {
	t.Helper()
	p := &mcp.CallToolParams{Name: name, Arguments: args}
	p.SetProgressToken(token)
	res, err := cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// long_operation reports one progress notification per step, in order, for
// the caller's token, on both protocol versions.
func TestLongOperationProgress(t *testing.T) {
	for _, proto := range []string{legacy, latest} {
		t.Run(proto, func(t *testing.T) {
			rec := newRecorder()
			_, cs := connect(t, proto, rec.options(nil))
			res := callWithProgress(t, cs, "long_operation", map[string]any{"steps": 7, "duration_ms": 70}, "tok-7")
			wantText("7 steps")(t, res)
			rec.waitFor(t, "7 progress notifications", func(r *recorder) bool { return len(r.progress) >= 7 })
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.progress) != 7 {
				t.Fatalf("got %d progress notifications, want 7", len(rec.progress))
			}
			for i, p := range rec.progress {
				if p.ProgressToken != "tok-7" || p.Progress != float64(i+1) || p.Total != 7 || p.Message == "" {
					t.Errorf("notification %d: %+v", i, p)
				}
			}
		})
	}
}

// The conformance fixture reports 0, 50 and 100 of 100.
func TestConformanceProgress(t *testing.T) {
	rec := newRecorder()
	_, cs := connect(t, legacy, rec.options(nil))
	callWithProgress(t, cs, "test_tool_with_progress", map[string]any{}, "progress-test-1")
	rec.waitFor(t, "3 progress notifications", func(r *recorder) bool { return len(r.progress) >= 3 })
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for i, want := range []float64{0, 50, 100} {
		if p := rec.progress[i]; p.Progress != want || p.Total != 100 || p.ProgressToken != "progress-test-1" {
			t.Errorf("notification %d: %+v, want %v/100", i, p, want)
		}
	}
}

// Without a progress token no progress is sent (there is no one to route it to).
func TestNoProgressWithoutToken(t *testing.T) {
	rec := newRecorder()
	_, cs := connect(t, legacy, rec.options(nil))
	call(t, cs, "long_operation", map[string]any{"steps": 3, "duration_ms": 3})
	// A later call's notifications arrive after the earlier ones: once
	// these three are in, none from the first call can still be pending.
	callWithProgress(t, cs, "test_tool_with_progress", map[string]any{}, "after")
	rec.waitFor(t, "the second call's progress", func(r *recorder) bool { return len(r.progress) >= 3 })
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, p := range rec.progress {
		if p.ProgressToken != "after" {
			t.Errorf("progress for a call that did not ask: %+v", p)
		}
	}
}

// emit_logs cycles through the levels; logging/setLevel filters them.
func TestLoggingLevels(t *testing.T) {
	rec := newRecorder()
	_, cs := connect(t, legacy, rec.options(nil))
	ctx := context.Background()
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "emit_logs", map[string]any{"count": 5, "interval_ms": 0})
	rec.waitFor(t, "5 log messages", func(r *recorder) bool { return len(r.logs) >= 5 })
	rec.mu.Lock()
	for i, want := range []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error"} {
		if l := rec.logs[i]; l.Level != want || l.Logger != "relavium-demo" || l.Data == nil {
			t.Errorf("log %d: %+v, want level %s", i, l, want)
		}
	}
	rec.logs = nil
	rec.mu.Unlock()

	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "emit_logs", map[string]any{"count": 5, "interval_ms": 0})
	call(t, cs, "test_tool_with_logging", map[string]any{}) // info: filtered out
	rec.waitFor(t, "2 log messages", func(r *recorder) bool { return len(r.logs) >= 2 })
	// Flush: a call whose own log passes the filter arrives last.
	call(t, cs, "always_fails", map[string]any{})
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.logs) != 2 || rec.logs[0].Level != "warning" || rec.logs[1].Level != "error" {
		t.Fatalf("at level warning got %d logs: %+v", len(rec.logs), rec.logs)
	}
}

// The conformance fixture sends three info messages about 50 ms apart.
func TestConformanceLogging(t *testing.T) {
	rec := newRecorder()
	_, cs := connect(t, legacy, rec.options(nil))
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	call(t, cs, "test_tool_with_logging", map[string]any{})
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("the call took %v; the fixture pauses 2×50 ms between messages", d)
	}
	rec.waitFor(t, "3 log messages", func(r *recorder) bool { return len(r.logs) >= 3 })
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for i, want := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if l := rec.logs[i]; l.Level != "info" || l.Data != want {
			t.Errorf("log %d: %+v, want info %q", i, l, want)
		}
	}
}

// Cancelling a call ends long_operation at once, not after its duration:
// the server session ends (it waits for its handlers) long before the ten
// minutes the call asked for, without the server being closed.
func TestLongOperationCancels(t *testing.T) {
	_, cs, ss := connectSession(t, legacy, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "long_operation", Arguments: map[string]any{"steps": 2, "duration_ms": 600000}})
	if err == nil {
		t.Fatal("a cancelled call returned no error")
	}
	// The session stays usable after the cancellation.
	wantText("still here")(t, call(t, cs, "echo", map[string]any{"message": "still here"}))
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() { _ = ss.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(30 * time.Second):
		t.Fatalf("the server session still runs %v after the call was cancelled", time.Since(start))
	}
}
