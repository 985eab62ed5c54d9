package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/host/deadline"
	"github.com/relavium/relavium/host/deadline/deadlinetest"
	"github.com/relavium/relavium/host/failure"
)

// askServer asks its client things: a sampling request, its roots, a
// url-mode elicitation, a form; rootsChanged counts roots/list_changed.
func askServer(rootsChanged *atomic.Int32) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ask", Version: "1"}, &mcp.ServerOptions{
		RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) { rootsChanged.Add(1) },
	})
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	type none struct{}
	mcp.AddTool(s, &mcp.Tool{Name: "sample"}, func(ctx context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
			SystemPrompt: "You are terse.\x1b[31m", MaxTokens: 42, Temperature: 0.5,
			ModelPreferences: &mcp.ModelPreferences{Hints: []*mcp.ModelHint{{Name: "claude"}}, SpeedPriority: 0.8},
			Messages:         []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Capital of France?"}}},
		})
		if err != nil {
			return text("error: " + err.Error()), nil, nil
		}
		return text(string(res.Role) + "/" + res.StopReason + ": " + res.Content.(*mcp.TextContent).Text), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "roots"}, func(ctx context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return text("error: " + err.Error()), nil, nil
		}
		var uris []string
		for _, r := range res.Roots {
			uris = append(uris, r.URI)
		}
		return text(strings.Join(uris, " ")), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "link"}, func(ctx context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Sign in", URL: "https://xn--80ak6aa92e.com/login", ElicitationID: "e1"})
		if err != nil {
			return text("error: " + err.Error()), nil, nil
		}
		if res.Action == "accept" {
			_ = req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: "e1"})
		}
		return text(res.Action), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "form"}, func(ctx context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Name?", RequestedSchema: map[string]any{"type": "object",
			"properties": map[string]any{"name": map[string]any{"type": "string"}}}})
		if err != nil {
			return text("error: " + err.Error()), nil, nil
		}
		return text(res.Action), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		return text("cancelled"), nil, nil
	})
	return s
}

// samplerFunc adapts a function to engine.Sampler.
type samplerFunc func(context.Context, engine.SampleRequest) (engine.SampleResponse, error)

func (f samplerFunc) Sample(ctx context.Context, r engine.SampleRequest) (engine.SampleResponse, error) {
	return f(ctx, r)
}

type elicitorFunc func(context.Context, engine.ElicitRequest) (engine.ElicitResponse, error)

func (f elicitorFunc) Elicit(ctx context.Context, r engine.ElicitRequest) (engine.ElicitResponse, error) {
	return f(ctx, r)
}

func TestSamplingShowsTheWholeRequestAndSendsTheReply(t *testing.T) {
	rec := &recorder{}
	var got engine.SampleRequest
	sm := samplerFunc(func(_ context.Context, r engine.SampleRequest) (engine.SampleResponse, error) {
		got = r
		return engine.SampleResponse{Action: engine.SampleAccept, Role: "assistant", Text: "Paris", StopReason: "endTurn"}, nil
	})
	var n atomic.Int32
	h := startHost(t, Options{Emitter: rec, Sampler: sm, Servers: []Endpoint{memoryServer(t, "a", askServer(&n))}})
	if txt := callText(t, h, "mcp_a_sample", `{}`); txt != "assistant/endTurn: Paris" {
		t.Fatalf("the server got %q", txt)
	}
	if got.Server != "a" || got.MaxTokens != 42 || got.SystemPrompt != "You are terse." || got.Temperature != 0.5 ||
		!strings.Contains(string(got.ModelPreferences), `"claude"`) || len(got.Messages) != 1 ||
		got.Messages[0].Role != "user" || got.Messages[0].Content[0].Text != "Capital of France?" {
		t.Fatalf("the sampler saw %+v", got)
	}
	reqs, res := rec.ofType(engine.EventSamplingRequest), rec.ofType(engine.EventSamplingResolved)
	if len(reqs) != 1 || len(res) != 1 {
		t.Fatalf("events: %s", rec.dump(t))
	}
	if r := res[0].Data.(engine.SamplingResolvedData); r.ID != got.ID || r.Action != "accept" || r.Text != "Paris" {
		t.Fatalf("resolved: %+v", r)
	}
}

func TestSamplingWithoutASamplerIsDeclinedWithACode(t *testing.T) {
	rec := &recorder{}
	var n atomic.Int32
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{memoryServer(t, "a", askServer(&n))}})
	if txt := callText(t, h, "mcp_a_sample", `{}`); !strings.Contains(txt, "E901") {
		t.Fatalf("the server got %q, want the E901 decline", txt)
	}
	res := rec.ofType(engine.EventSamplingResolved)
	if len(res) != 1 || res[0].Data.(engine.SamplingResolvedData).ErrorCode != string(failure.CodeSamplingDeclined) {
		t.Fatalf("events: %s", rec.dump(t))
	}
}

func TestRootsAreResolvedListedAndChanged(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	other := filepath.Join(dir, "other")
	for _, d := range []string{real, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var n atomic.Int32
	h := startHost(t, Options{Roots: []string{link}, Servers: []Endpoint{memoryServer(t, "a", askServer(&n))}})
	realURI := "file://" + filepath.ToSlash(resolved(t, real))
	if txt := callText(t, h, "mcp_a_roots", `{}`); txt != realURI {
		t.Fatalf("roots/list = %q, want the symlink resolved: %q", txt, realURI)
	}
	for _, bad := range []string{file, filepath.Join(dir, "missing"), "relative"} {
		if err := h.SetRoots([]string{other, bad}); codeOf(err) != failure.CodeBadRoot {
			t.Errorf("SetRoots(%s): %v, want E903", bad, err)
		}
	}
	if got := h.Roots(); len(got) != 1 || got[0].URI != realURI {
		t.Fatalf("a refused SetRoots changed the roots: %v", got)
	}
	if err := h.SetRoots([]string{other, real}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for n.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no notifications/roots/list_changed reached the server")
		}
		time.Sleep(10 * time.Millisecond)
	}
	want := "file://" + filepath.ToSlash(resolved(t, other)) + " " + realURI
	if txt := callText(t, h, "mcp_a_roots", `{}`); txt != want {
		t.Fatalf("roots/list after SetRoots = %q, want %q", txt, want)
	}
}

func resolved(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNoRootsCapabilityWithoutRoots(t *testing.T) {
	var n atomic.Int32
	h := startHost(t, Options{Servers: []Endpoint{memoryServer(t, "a", askServer(&n))}})
	if txt := callText(t, h, "mcp_a_roots", `{}`); txt != "" {
		t.Fatalf("roots/list without roots offered = %q, want no root", txt)
	}
	if err := h.SetRoots([]string{t.TempDir()}); codeOf(err) != failure.CodeBadRoot {
		t.Fatalf("SetRoots on a host without roots: %v", err)
	}
}

func TestURLElicitationIsScreened(t *testing.T) {
	var got engine.ElicitRequest
	el := elicitorFunc(func(_ context.Context, r engine.ElicitRequest) (engine.ElicitResponse, error) {
		got = r
		return engine.ElicitResponse{Action: "accept", Content: map[string]any{"ignored": true}}, nil
	})
	var n atomic.Int32
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Elicitor: el, URLElicitation: true, Servers: []Endpoint{memoryServer(t, "a", askServer(&n))}})
	if txt := callText(t, h, "mcp_a_link", `{}`); txt != "accept" {
		t.Fatalf("the server got %q", txt)
	}
	deadline := time.Now().Add(10 * time.Second)
	for { // the completion notification is recorded
		done := false
		for _, e := range rec.ofType(engine.EventElicitationResolved) {
			done = done || e.Data.(clientside.ResolvedData).Action == "completed e1"
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no elicitation completion recorded: %s", rec.dump(t))
		}
		time.Sleep(10 * time.Millisecond)
	}
	u := got.URL
	if u == nil || u.Origin != "https://xn--80ak6aa92e.com" || !u.Openable || u.ElicitationID != "e1" || len(got.Schema) != 0 {
		t.Fatalf("url request: %+v %+v", got, u)
	}
	if w := strings.Join(u.Warnings, "|"); !strings.Contains(w, "punycode") || !strings.Contains(w, "аррӏе.com") {
		t.Fatalf("warnings %q lack the punycode warning with the decoded name", w)
	}
	// Without URLElicitation, url mode is declined without asking.
	h2 := startHost(t, Options{Elicitor: el, Servers: []Endpoint{memoryServer(t, "b", askServer(&n))}})
	got = engine.ElicitRequest{}
	if txt := callText(t, h2, "mcp_b_link", `{}`); txt == "accept" || got.Server != "" {
		t.Fatalf("url mode without the capability: %q, asked %+v", txt, got)
	}
}

// The person's time is not the call's: with a fake clock, an hour passes
// while the form is open, and the call (1 s deadline) still succeeds; with
// no form open, the same clock expires it.
func TestCallDeadlinePausesWhileThePersonIsAsked(t *testing.T) {
	clk := deadlinetest.NewClock()
	el := elicitorFunc(func(context.Context, engine.ElicitRequest) (engine.ElicitResponse, error) {
		clk.Advance(time.Hour)
		return engine.ElicitResponse{Action: "decline"}, nil
	})
	var n atomic.Int32
	h := startHost(t, Options{Elicitor: el, Clock: clk, Timeouts: Timeouts{Call: time.Second},
		Servers: []Endpoint{memoryServer(t, "a", askServer(&n))}})
	res, err := callTool(t, h, context.Background(), "mcp_a_form", `{}`, engine.CallOptions{Timeout: 2 * time.Second})
	if txt := mustText(t, res, err); txt != "decline" {
		t.Fatalf("form: %q", txt)
	}

	var wg sync.WaitGroup
	wg.Add(1)
	var blockErr error
	go func() {
		defer wg.Done()
		_, blockErr = callTool(t, h, context.Background(), "mcp_a_block", `{}`, engine.CallOptions{Timeout: 2 * time.Second})
	}()
	for { // until the call's clock is running
		h.client.mu.Lock()
		n := 0
		for _, ds := range h.client.deadlines {
			n += len(ds)
		}
		h.client.mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	clk.Advance(time.Second)
	wg.Wait()
	if codeOf(blockErr) != failure.CodeCallDeadline || !strings.Contains(blockErr.Error(), "call_timeout_ms") {
		t.Fatalf("block: %v, want the E510 idle deadline", blockErr)
	}
}

// A progress notification of the call starts its idle deadline again; the
// host wires it (Call wraps OnProgress), with the clock injected.
func TestProgressResetsTheIdleDeadline(t *testing.T) {
	clk := deadlinetest.NewClock()
	step := make(chan struct{})
	s := mcp.NewServer(&mcp.Implementation{Name: "p", Version: "1"}, nil)
	type none struct{}
	mcp.AddTool(s, &mcp.Tool{Name: "pulse"}, func(ctx context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
		for {
			select {
			case <-ctx.Done():
				return &mcp.CallToolResult{}, nil, nil
			case <-step:
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1})
			}
		}
	})
	h := startHost(t, Options{Clock: clk, Timeouts: Timeouts{Call: time.Second}, Servers: []Endpoint{memoryServer(t, "p", s)}})
	progressed := make(chan struct{}, 4)
	done := make(chan error, 1)
	go func() {
		_, err := callTool(t, h, context.Background(), "mcp_p_pulse", `{}`, engine.CallOptions{Timeout: time.Hour,
			OnProgress: func(engine.Progress) { progressed <- struct{}{} }})
		done <- err
	}()
	var dl *deadline.Call
	for dl == nil { // until the call's clock runs
		h.client.mu.Lock()
		for _, ds := range h.client.deadlines {
			for d := range ds {
				dl = d
			}
		}
		h.client.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	clk.Advance(800 * time.Millisecond)
	step <- struct{}{}
	<-progressed // delivered: the idle deadline started again
	clk.Advance(800 * time.Millisecond)
	if c := dl.Cause(); c.What != "(no deadline ran out)" {
		t.Fatalf("1.6 s after the start, 0.8 s after progress: expired by %v", c)
	}
	clk.Advance(300 * time.Millisecond)
	if err := <-done; codeOf(err) != failure.CodeCallDeadline || !strings.Contains(err.Error(), "idle") {
		t.Fatalf("1.1 s after the last progress: %v, want the E510 idle deadline", err)
	}
}
