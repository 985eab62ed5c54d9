package clientside

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

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

// ErrAbandoned is returned to the server when the host closes (or the
// call ends) before the person's answerer answered.
var ErrAbandoned = errors.New("elicitation abandoned: the request was cancelled")

// AskAbandonable runs ask in its own goroutine and returns its answer, or
// an error as soon as the request or the server's lifetime ends: an
// answerer that ignores its context never holds a session.
func AskAbandonable[T any](ctx, life context.Context, ask func(context.Context) (T, error)) (T, error) {
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
		return zero, ErrAbandoned
	}
}

// SampleRequest is server's request p as the person sees it: every text
// cleaned for display and redacted (text, raw: the connection's redactor),
// bounded.
func SampleRequest(p *mcp.CreateMessageWithToolsParams, id, server string, text func(string) string, raw func(json.RawMessage) json.RawMessage) engine.SampleRequest {
	r := engine.SampleRequest{ID: id, Server: server, SystemPrompt: sanitize.Text(text(p.SystemPrompt)),
		MaxTokens: p.MaxTokens, Temperature: p.Temperature, IncludeContext: sanitize.Line(p.IncludeContext)}
	for _, s := range p.StopSequences {
		r.StopSequences = append(r.StopSequences, sanitize.Line(s))
	}
	if p.ModelPreferences != nil {
		if b, err := json.Marshal(p.ModelPreferences); err == nil {
			r.ModelPreferences = engine.DisplayJSON(raw(b))
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
			r.Tools = append(r.Tools, engine.SampleTool{Name: sanitize.Line(t.Name), Description: sanitize.Text(bound(text(t.Description)))})
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
			sm.Content = append(sm.Content, sampleContent(ct, text))
		}
		r.Messages = append(r.Messages, sm)
	}
	return r
}

// sampleContent is one content block of a sampling message, for display.
func sampleContent(ct mcp.Content, text func(string) string) engine.Content {
	switch v := ct.(type) {
	case *mcp.TextContent:
		return engine.Content{Type: engine.ContentText, Text: sanitize.Text(bound(text(v.Text)))}
	case *mcp.ImageContent:
		return engine.Content{Type: engine.ContentImage, MIMEType: sanitize.Line(v.MIMEType), Text: strconv.Itoa(len(v.Data)) + " bytes"}
	case *mcp.AudioContent:
		return engine.Content{Type: engine.ContentAudio, MIMEType: sanitize.Line(v.MIMEType), Text: strconv.Itoa(len(v.Data)) + " bytes"}
	case *mcp.ToolUseContent:
		in, _ := json.Marshal(v.Input)
		return engine.Content{Type: engine.ContentText, Text: "[tool use " + sanitize.Line(v.Name) + "] " + sanitize.Text(bound(text(string(in))))}
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

// RelayedDecline reports whether a failed call's error relays relavium's
// own decline of a sampling request (a server that fails its tool call
// when sampling is declined, as the go-sdk's bridge does): the call then
// fails with the decline's code, which says what to do, not E515.
func RelayedDecline(err error) (fault.Code, bool) {
	msg := err.Error()
	for _, code := range []fault.Code{failure.CodeSamplingDeclined, failure.CodeSamplingRateLimited} {
		if strings.Contains(msg, "sampling/createMessage") && strings.Contains(msg, string(code)+": ") {
			return code, true
		}
	}
	return "", false
}
