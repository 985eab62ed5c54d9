package demoserver_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A multi round-trip tool's requestState is the server's signed word: the
// client echoes it back, and a state that was altered, that another tool
// issued, or that another server issued is refused with invalid params
// (never acted on, never answered with a fresh question). An untouched one
// carries the rounds through.
func TestRequestStateCannotBeTampered(t *testing.T) {
	manual := &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
	_, cs := connect(t, latest, manual)
	_, other := connect(t, latest, manual)
	ctx := context.Background()
	first := func(cs *mcp.ClientSession, tool string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
		if err != nil || !res.NeedsInput() || res.RequestState == "" {
			t.Fatalf("%s: want an input-required result with a requestState, got %+v, %v", tool, res, err)
		}
		return res
	}
	retry := func(tool, state string, answers mcp.InputResponseMap) (*mcp.CallToolResult, error) {
		return cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}, InputResponses: answers, RequestState: state})
	}
	confirm := mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}}
	const tool = "test_input_required_result_tampered_state"
	state := first(cs, tool).RequestState
	refused := func(what, state string) {
		t.Helper()
		res, err := retry(tool, state, confirm)
		var rpc *jsonrpc.Error
		if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams || !strings.Contains(rpc.Message, "integrity") {
			t.Errorf("%s: want invalid params (integrity), got %+v, %v", what, res, err)
		}
	}
	refused("suffixed", state+"-TAMPERED")
	refused("one byte changed", state[:len(state)-1]+string(state[len(state)-1]^1))
	refused("issued for another tool", first(cs, "test_input_required_result_request_state").RequestState)
	refused("issued by another server", first(other, tool).RequestState)
	refused("not a state", "{}")
	if res, err := retry(tool, state, confirm); err != nil || res.NeedsInput() || !strings.Contains(textOf(t, res), "integrity-ok") {
		t.Fatalf("the untouched state: %+v, %v", res, err)
	}

	// Two rounds: the name given in the first is carried, signed, to the last.
	const multi = "test_input_required_result_multi_round"
	r1 := first(cs, multi)
	r2, err := retry(multi, r1.RequestState, mcp.InputResponseMap{"step1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}})
	if err != nil || !r2.NeedsInput() || r2.RequestState == r1.RequestState || r2.InputRequests["step2"] == nil {
		t.Fatalf("round 2: %+v, %v", r2, err)
	}
	r3, err := retry(multi, r2.RequestState, mcp.InputResponseMap{"step2": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"color": "green"}}})
	if err != nil || r3.NeedsInput() || !strings.Contains(textOf(t, r3), "Multi-round complete for Ada who likes green") {
		t.Fatalf("round 3: %+v, %v", r3, err)
	}
}
