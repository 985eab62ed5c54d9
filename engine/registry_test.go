package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
)

func mustRegistry(t *testing.T, h ToolHost) *Registry {
	t.Helper()
	r, err := NewRegistry(h)
	if err != nil {
		t.Fatal(err)
	}
	return r
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

func TestRegistryRoutesByNameToToolID(t *testing.T) {
	h := newFakeHost()
	h.add("fs", "read", echoArgs)
	want := h.add("git", "log", echoArgs)
	r := mustRegistry(t, h)

	res, def, err := r.Call(context.Background(), "mcp_git_log", json.RawMessage(`{"n":3}`), CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if def.ID != want || res.Text() != `{"n":3}` {
		t.Fatalf("routed to %s with %q", def.ID, res.Text())
	}
	calls := h.recorded()
	if len(calls) != 1 || calls[0].ID != want || calls[0].Args != `{"n":3}` {
		t.Fatalf("host saw %+v", calls)
	}
}

func TestRegistryMCPCallGoesThroughTheSameCapability(t *testing.T) {
	h := newFakeHost()
	want := h.add("git", "log", echoArgs)
	r := mustRegistry(t, h)
	_, def, err := r.Call(context.Background(), BuiltinMCPCall,
		json.RawMessage(`{"server":"git","tool":"log","arguments":{"n":5}}`), CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	calls := h.recorded()
	if def.ID != want || len(calls) != 1 || calls[0].ID != want || calls[0].Args != `{"n":5}` {
		t.Fatalf("mcp_call reached %+v via %s", calls, def.ID)
	}
	// arguments omitted → {}
	if _, _, err := r.Call(context.Background(), BuiltinMCPCall, json.RawMessage(`{"server":"git","tool":"log"}`), CallOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := h.recorded()[1].Args; got != `{}` {
		t.Fatalf("omitted arguments became %s", got)
	}
}

func TestRegistryMCPCallArgumentsAreValidated(t *testing.T) {
	h := newFakeHost()
	h.add("git", "log", echoArgs)
	r := mustRegistry(t, h)
	for _, args := range []string{
		`{"tool":"log"}`,
		`{"server":"git"}`,
		`{"server":"git","tool":"log","extra":1}`,
		`{"server":"git","tool":"log","arguments":[1]}`,
		`{"server":5,"tool":"log"}`,
		`[]`,
		`not json`,
	} {
		_, _, err := r.Call(context.Background(), BuiltinMCPCall, json.RawMessage(args), CallOptions{})
		codeIs(t, err, CodeMCPCallArgs)
	}
	if n := len(h.recorded()); n != 0 {
		t.Fatalf("invalid mcp_call reached the host %d times", n)
	}
}

func TestRegistryUnknownAndSkippedTools(t *testing.T) {
	h := newFakeHost()
	h.add("git", "log", echoArgs)
	h.skipped = []SkippedTool{{Server: "git", Tool: "weird", Code: "unsupported-schema", Detail: "$ref remote"}}
	r := mustRegistry(t, h)

	_, err := r.Lookup("mcp_git_nope")
	codeIs(t, err, CodeToolUnknown)
	if !strings.Contains(err.Error(), "mcp_git_log") {
		t.Fatalf("no suggestion of the server's tools: %v", err)
	}
	_, err = r.Lookup("mcp_git_weird")
	codeIs(t, err, CodeToolUnknown)
	if !strings.Contains(err.Error(), "skipped at discovery") || !strings.Contains(err.Error(), "$ref remote") {
		t.Fatalf("skip reason not named: %v", err)
	}
	_, _, err = r.Call(context.Background(), BuiltinMCPCall, json.RawMessage(`{"server":"git","tool":"weird"}`), CallOptions{})
	codeIs(t, err, CodeToolUnknown)
	_, _, err = r.Call(context.Background(), BuiltinMCPCall, json.RawMessage(`{"server":"nope","tool":"log"}`), CallOptions{})
	codeIs(t, err, CodeToolUnknown)
	if n := len(h.recorded()); n != 0 {
		t.Fatalf("unknown tools reached the host %d times", n)
	}
}

func TestRegistryListsMCPCallAndSeesNewTools(t *testing.T) {
	h := newFakeHost()
	r := mustRegistry(t, h)
	if ts := r.Tools(); len(ts) != 1 || ts[0].Name != BuiltinMCPCall {
		t.Fatalf("tools = %+v", ts)
	}
	h.add("late", "tool", echoArgs) // e.g. after tools/list_changed
	if _, err := r.Lookup("mcp_late_tool"); err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(MCPCallDef().InputSchema, &schema); err != nil || schema["type"] != "object" {
		t.Fatalf("mcp_call schema %s: %v", MCPCallDef().InputSchema, err)
	}
	if _, err := NewRegistry(nil); err == nil {
		t.Fatal("a registry without a host was accepted")
	}
}
