package clientside

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
)

// ResolvedData is the payload of elicitation:resolved.
type ResolvedData struct {
	Server string `json:"server"`
	Action string `json:"action"`
}

// Elicitation is what answering one server's elicitations needs of its
// connection.
type Elicitation struct {
	Server   string
	Elicitor engine.Elicitor // nil: every request is declined
	URL      bool            // url-mode elicitation was declared
	Orders   *FieldOrders    // the connection's remembered field orders
	// Text and Raw are the connection's redactor, for text and for JSON.
	Text func(string) string
	Raw  func(json.RawMessage) json.RawMessage
	Emit func(engine.Event)
	// Hold pauses the deadlines of the server's calls until the returned
	// resume: the person's time is not the call's.
	Hold func() (resume func())
	// Life is the server's lifetime: its end gives the request up.
	Life context.Context
}

// Elicit answers a server's elicitation/create through e.Elicitor. It
// watches the server's lifetime as well as the request: Close cancels it
// first, so a pending elicitation can never hold a session Close (the
// go-sdk close deadlock, docs/mcp-integration.md "What the go-sdk leaves to
// relavium"). Without an Elicitor, or for a
// url-mode request (relavium opens no url on a server's behalf), it declines.
func Elicit(ctx context.Context, e Elicitation, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	if req == nil || req.Params == nil {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	el := e.Elicitor
	urlMode := req.Params.Mode == "url"
	if el == nil || (urlMode && !e.URL) {
		e.Emit(engine.Event{Type: engine.EventElicitationResolved, Data: ResolvedData{Server: e.Server, Action: "decline"}})
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	var schema json.RawMessage
	if req.Params.RequestedSchema != nil && !urlMode {
		if b, err := json.Marshal(req.Params.RequestedSchema); err == nil {
			schema = e.Orders.Apply(b)
		}
	}
	ereq := engine.ElicitRequest{Server: e.Server, Message: sanitize.Text(e.Text(req.Params.Message)), Schema: e.Raw(schema)}
	if urlMode {
		u := ScreenURL(req.Params.URL)
		u.ElicitationID = sanitize.Line(req.Params.ElicitationID)
		ereq.URL = &u
	}
	e.Emit(engine.Event{Type: engine.EventElicitationRequest, Data: ereq})
	defer e.Hold()() // the person's time is not the call's

	ectx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(e.Life, func() { cancel(context.Cause(e.Life)) })
	defer stop()
	type answer struct {
		resp engine.ElicitResponse
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		resp, err := el.Elicit(ectx, ereq)
		done <- answer{resp, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-ectx.Done():
		// An Elicitor that ignores its context must not hold the session:
		// answer now; its goroutine ends whenever it returns.
		a = answer{err: ErrAbandoned}
	}
	if a.err != nil {
		// The person (or the host) went away: tell the server the request
		// was cancelled rather than fail the protocol exchange.
		e.Emit(engine.Event{Type: engine.EventElicitationResolved, Data: ResolvedData{Server: e.Server, Action: "cancel"}})
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	switch a.resp.Action {
	case "accept", "decline", "cancel":
	default:
		a.resp = engine.ElicitResponse{Action: "decline"}
	}
	e.Emit(engine.Event{Type: engine.EventElicitationResolved, Data: ResolvedData{Server: e.Server, Action: a.resp.Action}})
	res := &mcp.ElicitResult{Action: a.resp.Action}
	if a.resp.Action == "accept" && !urlMode {
		res.Content = a.resp.Content
		if res.Content == nil {
			res.Content = map[string]any{}
		}
	}
	return res, nil
}
