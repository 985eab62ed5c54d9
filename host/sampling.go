package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
)

// Sampling (sampling/createMessage): a server asks the client's model for
// a message. relavium has no model: the person answers (the TUI's dialog),
// or --sampling-reply does, through an engine.Sampler. Without one the
// request is declined with E901. Every request and answer is an event
// (sampling:requested, sampling:resolved), so the session log, --events and
// the export keep them.

// Bounds of what a sampling request may show.
const (
	maxSampleMessages = 64       // messages shown; the rest are counted
	maxSampleText     = 64 << 10 // bytes of one message's text shown
	maxSampleTools    = 64
	// SamplingBurst and SamplingPerMinute bound how often one server may
	// ask: beyond them a request is declined unasked (E902).
	SamplingBurst     = 5
	SamplingPerMinute = 10
)

// userRejected is the JSON-RPC code a declined sampling request is
// answered with (the MCP convention for "the user rejected it").
const userRejected = -1

// onSample answers a server's sampling/createMessage through the Sampler.
func (c *conn) onSample(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
	if req == nil || req.Params == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "sampling/createMessage without params"}
	}
	cs := &c.h.client
	sreq := c.sampleRequest(req.Params, cs.nextSample())
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
		return decline(failure.CodeSamplingRateLimited, fmt.Sprintf("sampling declined unasked: %s asked more than %d times a minute", c.srv.Name, SamplingPerMinute))
	}
	resume := cs.hold(c) // the person's time is not the call's
	defer resume()
	resp, err := askAbandonable(ctx, c.ctx, func(ctx context.Context) (engine.SampleResponse, error) { return sm.Sample(ctx, sreq) })
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

// askAbandonable runs ask in its own goroutine and returns its answer, or
// an error as soon as the request or the server's lifetime ends: an
// answerer that ignores its context never holds a session.
func askAbandonable[T any](ctx, life context.Context, ask func(context.Context) (T, error)) (T, error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(life, func() { cancel(context.Cause(life)) })
	defer stop()
	type answer struct {
		v   T
		err error
	}
	done := make(chan answer, 1)
	go func() {
		v, err := ask(actx)
		done <- answer{v, err}
	}()
	select {
	case a := <-done:
		return a.v, a.err
	case <-actx.Done():
		var zero T
		return zero, errElicitorAbandoned
	}
}

// sampleRequest is the request as the person sees it: every text cleaned
// for display and redacted, bounded.
func (c *conn) sampleRequest(p *mcp.CreateMessageWithToolsParams, id string) engine.SampleRequest {
	r := engine.SampleRequest{ID: id, Server: c.srv.Name, SystemPrompt: sanitize.Text(c.redactText(p.SystemPrompt)),
		MaxTokens: p.MaxTokens, Temperature: p.Temperature, IncludeContext: sanitize.Line(p.IncludeContext)}
	for _, s := range p.StopSequences {
		r.StopSequences = append(r.StopSequences, sanitize.Line(s))
	}
	if p.ModelPreferences != nil {
		if b, err := json.Marshal(p.ModelPreferences); err == nil {
			r.ModelPreferences = engine.DisplayJSON(c.redactJSON(b))
		}
	}
	if p.ToolChoice != nil {
		r.ToolChoice = sanitize.Line(p.ToolChoice.Mode)
	}
	for i, t := range p.Tools {
		if i == maxSampleTools {
			r.Tools = append(r.Tools, engine.SampleTool{Name: fmt.Sprintf("(%d more tools not shown)", len(p.Tools)-i)})
			break
		}
		if t != nil {
			r.Tools = append(r.Tools, engine.SampleTool{Name: sanitize.Line(t.Name), Description: sanitize.Text(bound(c.redactText(t.Description)))})
		}
	}
	for i, m := range p.Messages {
		if i == maxSampleMessages {
			r.Messages = append(r.Messages, engine.SampleMessage{Role: "note", Content: []engine.Content{{Type: engine.ContentText,
				Text: fmt.Sprintf("(%d more messages not shown)", len(p.Messages)-i)}}})
			break
		}
		if m == nil {
			continue
		}
		sm := engine.SampleMessage{Role: sanitize.Line(string(m.Role))}
		for _, ct := range m.Content {
			sm.Content = append(sm.Content, c.sampleContent(ct))
		}
		r.Messages = append(r.Messages, sm)
	}
	return r
}

// sampleContent is one content block of a sampling message, for display.
func (c *conn) sampleContent(ct mcp.Content) engine.Content {
	switch v := ct.(type) {
	case *mcp.TextContent:
		return engine.Content{Type: engine.ContentText, Text: sanitize.Text(bound(c.redactText(v.Text)))}
	case *mcp.ImageContent:
		return engine.Content{Type: engine.ContentImage, MIMEType: sanitize.Line(v.MIMEType), Text: strconv.Itoa(len(v.Data)) + " bytes"}
	case *mcp.AudioContent:
		return engine.Content{Type: engine.ContentAudio, MIMEType: sanitize.Line(v.MIMEType), Text: strconv.Itoa(len(v.Data)) + " bytes"}
	case *mcp.ToolUseContent:
		in, _ := json.Marshal(v.Input)
		return engine.Content{Type: engine.ContentText, Text: "[tool use " + sanitize.Line(v.Name) + "] " + sanitize.Text(bound(c.redactText(string(in))))}
	case *mcp.ToolResultContent:
		return engine.Content{Type: engine.ContentText, Text: "[tool result for " + sanitize.Line(v.ToolUseID) + "]"}
	}
	return engine.Content{Type: engine.ContentText, Text: "(content of a type relavium does not show)"}
}

// bound cuts s to maxSampleText bytes, saying so.
func bound(s string) string {
	if len(s) <= maxSampleText {
		return s
	}
	cut := maxSampleText
	for cut > 0 && s[cut]&0xC0 == 0x80 { // never inside a UTF-8 sequence
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes not shown)", len(s)-cut)
}

// relayedDecline reports whether a failed call's error relays relavium's
// own decline of a sampling request (a server that fails its tool call
// when sampling is declined, as the go-sdk's bridge does): the call then
// fails with the decline's code, which says what to do, not E515.
func relayedDecline(err error) (fault.Code, bool) {
	msg := err.Error()
	for _, code := range []fault.Code{failure.CodeSamplingDeclined, failure.CodeSamplingRateLimited} {
		if strings.Contains(msg, "sampling/createMessage") && strings.Contains(msg, string(code)+": ") {
			return code, true
		}
	}
	return "", false
}
