package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// fakeHost is an in-memory ToolHost: no process, no network. Each tool's
// behaviour is a function; every call is recorded.
type fakeHost struct {
	mu      sync.Mutex
	tools   []ToolDef
	skipped []SkippedTool
	funcs   map[ToolID]func(ctx context.Context, args json.RawMessage, opts CallOptions) (*ToolResult, error)
	calls   []fakeCall
}

type fakeCall struct {
	ID   ToolID
	Args string
	Opts CallOptions
}

func newFakeHost() *fakeHost {
	return &fakeHost{funcs: map[ToolID]func(context.Context, json.RawMessage, CallOptions) (*ToolResult, error){}}
}

// add registers server/tool as mcp_{server}_{tool} with an opaque id.
func (h *fakeHost) add(server, tool string, fn func(ctx context.Context, args json.RawMessage, opts CallOptions) (*ToolResult, error)) ToolID {
	h.mu.Lock()
	defer h.mu.Unlock()
	id := ToolID(fmt.Sprintf("id-%d", len(h.tools)+1))
	h.tools = append(h.tools, ToolDef{ID: id, Name: "mcp_" + server + "_" + tool, Server: server, Tool: tool})
	h.funcs[id] = fn
	return id
}

func (h *fakeHost) Tools() []ToolDef {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]ToolDef(nil), h.tools...)
}

func (h *fakeHost) Tool(name string) (ToolDef, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, t := range h.tools {
		if t.Name == name {
			return t, true
		}
	}
	return ToolDef{}, false
}

func (h *fakeHost) Skipped() []SkippedTool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]SkippedTool(nil), h.skipped...)
}

func (h *fakeHost) Call(ctx context.Context, id ToolID, args json.RawMessage, opts CallOptions) (*ToolResult, error) {
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

// echoArgs returns the arguments as text and as structured content.
func echoArgs(_ context.Context, args json.RawMessage, _ CallOptions) (*ToolResult, error) {
	return &ToolResult{Content: []Content{{Type: "text", Text: string(args)}}, Structured: args}, nil
}

// recorder is an Emitter that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) Emit(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) all() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

func (r *recorder) types() []string {
	var out []string
	for _, e := range r.all() {
		out = append(out, e.Type)
	}
	return out
}
