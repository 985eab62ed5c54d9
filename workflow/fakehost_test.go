package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
)

// fakeHost is an in-memory ToolHost: no process, no network. Each tool's
// behaviour is a function; every call is recorded.
type fakeHost struct {
	mu      sync.Mutex
	tools   []engine.ToolDef
	skipped []engine.SkippedTool
	funcs   map[engine.ToolID]func(ctx context.Context, args json.RawMessage, opts engine.CallOptions) (*engine.ToolResult, error)
	calls   []fakeCall
}

type fakeCall struct {
	ID   engine.ToolID
	Args string
	Opts engine.CallOptions
}

func newFakeHost() *fakeHost {
	return &fakeHost{funcs: map[engine.ToolID]func(context.Context, json.RawMessage, engine.CallOptions) (*engine.ToolResult, error){}}
}

// add registers server/tool as mcp_{server}_{tool} with an opaque id.
func (h *fakeHost) add(server, tool string, fn func(ctx context.Context, args json.RawMessage, opts engine.CallOptions) (*engine.ToolResult, error)) engine.ToolID {
	h.mu.Lock()
	defer h.mu.Unlock()
	id := engine.ToolID(fmt.Sprintf("id-%d", len(h.tools)+1))
	h.tools = append(h.tools, engine.ToolDef{ID: id, Name: "mcp_" + server + "_" + tool, Server: server, Tool: tool})
	h.funcs[id] = fn
	return id
}

func (h *fakeHost) Tools() []engine.ToolDef {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]engine.ToolDef(nil), h.tools...)
}

func (h *fakeHost) Tool(name string) (engine.ToolDef, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, t := range h.tools {
		if t.Name == name {
			return t, true
		}
	}
	return engine.ToolDef{}, false
}

func (h *fakeHost) Skipped() []engine.SkippedTool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]engine.SkippedTool(nil), h.skipped...)
}

func (h *fakeHost) Call(ctx context.Context, id engine.ToolID, args json.RawMessage, opts engine.CallOptions) (*engine.ToolResult, error) {
	h.mu.Lock()
	fn, ok := h.funcs[id]
	h.calls = append(h.calls, fakeCall{ID: id, Args: string(args), Opts: opts})
	h.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("fake host: unknown tool id %s", id)
	}
	return fn(ctx, args, opts)
}

func (h *fakeHost) recorded() []fakeCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]fakeCall(nil), h.calls...)
}

func textResult(s string) *engine.ToolResult {
	return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: s}}}
}

// echoArgs returns the arguments as text and as structured content.
func echoArgs(_ context.Context, args json.RawMessage, _ engine.CallOptions) (*engine.ToolResult, error) {
	return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: string(args)}}, Structured: args}, nil
}

// recorder is an Emitter that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []engine.Event
}

func (r *recorder) Emit(e engine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) all() []engine.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]engine.Event(nil), r.events...)
}

func (r *recorder) types() []string {
	var out []string
	for _, e := range r.all() {
		out = append(out, e.Type)
	}
	return out
}

func codeIs(t *testing.T, err error, code fault.Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("want error %s, got nil", code)
	}
	var c interface{ Code() fault.Code }
	if !errors.As(err, &c) || c.Code() != code {
		t.Fatalf("want code %s, got %v", code, err)
	}
}
