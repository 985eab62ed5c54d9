package demoserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// asked records what the server asked the client.
type asked struct {
	mu        sync.Mutex
	elicits   []*mcp.ElicitParams
	samplings []*mcp.CreateMessageParams
}

func (a *asked) client(action string, content map[string]any) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			a.mu.Lock()
			a.elicits = append(a.elicits, req.Params)
			a.mu.Unlock()
			c := map[string]any{}
			for k, v := range content {
				c[k] = v
			}
			return &mcp.ElicitResult{Action: action, Content: c}, nil
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			a.mu.Lock()
			a.samplings = append(a.samplings, req.Params)
			a.mu.Unlock()
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "Paris"}}, nil
		},
	}
}

func schemaOf(t *testing.T, p *mcp.ElicitParams) map[string]any {
	t.Helper()
	b, err := json.Marshal(p.RequestedSchema)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// test_elicitation asks exactly once, with the caller's message and the
// username/email form, and reports the answer — on a 2025-11-25 client
// (elicitation/create, bridged by the SDK) and a 2026-07-28 client
// (InputRequests).
func TestElicitationBothProtocols(t *testing.T) {
	for _, proto := range []string{legacy, latest} {
		t.Run(proto, func(t *testing.T) {
			var a asked
			_, cs := connect(t, proto, a.client("accept", map[string]any{"username": "testuser", "email": "test@example.com"}))
			res := call(t, cs, "test_elicitation", map[string]any{"message": "Please provide your information"})
			wantText(`User response: action=accept, content={"email":"test@example.com","username":"testuser"}`)(t, res)
			a.mu.Lock()
			defer a.mu.Unlock()
			if len(a.elicits) != 1 {
				t.Fatalf("asked %d times, want once", len(a.elicits))
			}
			p := a.elicits[0]
			if p.Message != "Please provide your information" {
				t.Errorf("message %q", p.Message)
			}
			s := schemaOf(t, p)
			props, _ := s["properties"].(map[string]any)
			if s["type"] != "object" || props["username"] == nil || props["email"] == nil {
				t.Errorf("schema %v", s)
			}
		})
	}
}

// A declined form is reported, not treated as an answer.
func TestElicitationDeclined(t *testing.T) {
	for _, proto := range []string{legacy, latest} {
		t.Run(proto, func(t *testing.T) {
			var a asked
			_, cs := connect(t, proto, a.client("decline", nil))
			wantText("No answer (decline)")(t, call(t, cs, "ask_user", map[string]any{"question": "Who?"}))
			wantText("action=decline")(t, call(t, cs, "test_elicitation", map[string]any{"message": "m"}))
		})
	}
}

// The SEP-1034 defaults reach the client, and a client accepting an empty
// form gets them filled in.
func TestElicitationDefaults(t *testing.T) {
	for _, proto := range []string{legacy, latest} {
		t.Run(proto, func(t *testing.T) {
			var a asked
			_, cs := connect(t, proto, a.client("accept", map[string]any{}))
			wantText(`content={"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}`)(t,
				call(t, cs, "test_elicitation_sep1034_defaults", map[string]any{}))
			a.mu.Lock()
			defer a.mu.Unlock()
			props := schemaOf(t, a.elicits[0])["properties"].(map[string]any)
			want := map[string]any{"name": "John Doe", "age": 30.0, "score": 95.5, "status": "active", "verified": true}
			for k, v := range want {
				if got := props[k].(map[string]any)["default"]; got != v {
					t.Errorf("%s default %v, want %v", k, got, v)
				}
			}
		})
	}
}

// The five SEP-1330 enum shapes are what the conformance suite checks.
func TestElicitationEnumShapes(t *testing.T) {
	var a asked
	_, cs := connect(t, legacy, a.client("accept", map[string]any{
		"untitledSingle": "option1", "titledSingle": "value1", "legacyEnum": "opt1",
		"untitledMulti": []any{"option1", "option2"}, "titledMulti": []any{"value1", "value2"},
	}))
	wantText("action=accept")(t, call(t, cs, "test_elicitation_sep1330_enums", map[string]any{}))
	a.mu.Lock()
	defer a.mu.Unlock()
	props := schemaOf(t, a.elicits[0])["properties"].(map[string]any)
	get := func(k string) map[string]any { return props[k].(map[string]any) }
	if s := get("untitledSingle"); s["enum"] == nil || s["oneOf"] != nil {
		t.Errorf("untitledSingle %v", s)
	}
	if s := get("titledSingle"); s["oneOf"] == nil || s["enum"] != nil {
		t.Errorf("titledSingle %v", s)
	}
	if s := get("legacyEnum"); len(s["enumNames"].([]any)) != len(s["enum"].([]any)) {
		t.Errorf("legacyEnum %v", s)
	}
	if s := get("untitledMulti"); s["type"] != "array" || s["items"].(map[string]any)["enum"] == nil {
		t.Errorf("untitledMulti %v", s)
	}
	if s := get("titledMulti"); s["type"] != "array" || s["items"].(map[string]any)["anyOf"] == nil || s["items"].(map[string]any)["enum"] != nil {
		t.Errorf("titledMulti %v", s)
	}
}

// test_sampling asks the client's model with the caller's prompt and
// maxTokens 100, on both protocol versions.
func TestSamplingBothProtocols(t *testing.T) {
	for _, proto := range []string{legacy, latest} {
		t.Run(proto, func(t *testing.T) {
			var a asked
			_, cs := connect(t, proto, a.client("accept", nil))
			wantText("LLM response: Paris")(t, call(t, cs, "test_sampling", map[string]any{"prompt": "Capital of France?"}))
			a.mu.Lock()
			defer a.mu.Unlock()
			if len(a.samplings) != 1 {
				t.Fatalf("sampled %d times, want once", len(a.samplings))
			}
			p := a.samplings[0]
			if p.MaxTokens != 100 || len(p.Messages) != 1 || p.Messages[0].Role != "user" ||
				p.Messages[0].Content.(*mcp.TextContent).Text != "Capital of France?" {
				t.Errorf("sampling request %+v", p)
			}
		})
	}
}

// A client without the capability gets an isError result naming it, not a
// protocol error and not a hang.
func TestMissingCapability(t *testing.T) {
	for _, proto := range []string{legacy, latest} {
		t.Run(proto, func(t *testing.T) {
			_, cs := connect(t, proto, nil)
			for tool, args := range map[string]map[string]any{
				"test_elicitation": {"message": "m"}, "ask_user": {},
				"test_elicitation_sep1034_defaults": {}, "test_elicitation_sep1330_enums": {},
			} {
				res := call(t, cs, tool, args)
				if !res.IsError || !strings.Contains(textOf(t, res), "elicitation capability") {
					t.Errorf("%s: %#v", tool, res.Content)
				}
			}
			res := call(t, cs, "test_sampling", map[string]any{"prompt": "p"})
			if !res.IsError || !strings.Contains(textOf(t, res), "sampling capability") {
				t.Errorf("test_sampling: %#v", res.Content)
			}
		})
	}
}
