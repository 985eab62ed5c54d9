package host

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/host/failure"
)

// Sampling's handler (the request's display, its bounds and the answerers:
// host/clientside).

// userRejected is the JSON-RPC code a declined sampling request is
// answered with (the MCP convention for "the user rejected it").
const userRejected = -1

// onSample answers a server's sampling/createMessage through the Sampler.
func (c *conn) onSample(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
	if req == nil || req.Params == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "sampling/createMessage without params"}
	}
	cs := &c.h.client
	sreq := clientside.SampleRequest(req.Params, cs.nextSample(), c.srv.Name, c.redactText, c.redactJSON)
	c.h.em.Emit(engine.Event{Type: engine.EventSamplingRequest, Data: sreq})
	decline := func(code fault.Code, reason string) (*mcp.CreateMessageWithToolsResult, error) {
		c.h.em.Emit(engine.Event{Type: engine.EventSamplingResolved, Data: engine.SamplingResolvedData{ID: sreq.ID, Server: c.srv.Name,
			SampleResponse: engine.SampleResponse{Action: engine.SampleDecline}, ErrorCode: string(code), Reason: reason}})
		return nil, &jsonrpc.Error{Code: userRejected, Message: string(code) + ": " + reason}
	}
	sm := c.h.opts.Sampler
	if sm == nil {
		return decline(failure.CodeSamplingDeclined, "sampling declined: no one answers sampling here (relavium has no model; pass --sampling-reply, or answer in the TUI)")
	}
	if !cs.allowSample(c, c.h.clock()) {
		return decline(failure.CodeSamplingRateLimited, fmt.Sprintf("sampling declined unasked: %s asked more than %d times a minute", c.srv.Name, clientside.SamplingPerMinute))
	}
	resume := cs.hold(c) // the person's time is not the call's
	defer resume()
	resp, err := clientside.AskAbandonable(ctx, c.ctx, func(ctx context.Context) (engine.SampleResponse, error) { return sm.Sample(ctx, sreq) })
	if err != nil {
		return decline(failure.CodeSamplingDeclined, "sampling cancelled before it was answered")
	}
	if resp.Action != engine.SampleAccept {
		return decline(failure.CodeSamplingDeclined, "sampling declined by the person")
	}
	if resp.Role != "user" {
		resp.Role = "assistant"
	}
	if resp.Model == "" {
		resp.Model = "relavium-person"
	}
	if resp.StopReason == "" {
		resp.StopReason = "endTurn"
	}
	c.h.em.Emit(engine.Event{Type: engine.EventSamplingResolved, Data: engine.SamplingResolvedData{ID: sreq.ID, Server: c.srv.Name,
		SampleResponse: engine.SampleResponse{Action: engine.SampleAccept, Role: resp.Role, Text: sanitize.Text(resp.Text), Model: resp.Model, StopReason: resp.StopReason}}})
	return &mcp.CreateMessageWithToolsResult{Content: []mcp.Content{&mcp.TextContent{Text: resp.Text}}, Model: resp.Model,
		Role: mcp.Role(resp.Role), StopReason: resp.StopReason}, nil
}
