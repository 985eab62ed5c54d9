package host

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host/clientside"
)

// ElicitationResolvedData is the payload of elicitation:resolved.
type ElicitationResolvedData struct {
	Server string `json:"server"`
	Action string `json:"action"`
}

// onElicit answers a server's elicitation/create through the Elicitor. It
// watches the server's lifetime as well as the request: Close cancels it
// first, so a pending elicitation can never hold a session Close (the
// go-sdk close deadlock, docs/mcp-integration.md "What the go-sdk leaves to
// relavium"). Without an Elicitor, or for a
// url-mode request (relavium opens no url on a server's behalf), it declines.
func (c *conn) onElicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	if req == nil || req.Params == nil {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	el := c.h.opts.Elicitor
	urlMode := req.Params.Mode == "url"
	if el == nil || (urlMode && !c.h.opts.URLElicitation) {
		c.h.em.Emit(engine.Event{Type: engine.EventElicitationResolved, Data: ElicitationResolvedData{Server: c.srv.Name, Action: "decline"}})
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	var schema json.RawMessage
	if req.Params.RequestedSchema != nil && !urlMode {
		if b, err := json.Marshal(req.Params.RequestedSchema); err == nil {
			schema = c.fieldOrders.Apply(b)
		}
	}
	ereq := engine.ElicitRequest{Server: c.srv.Name, Message: sanitize.Text(c.redactText(req.Params.Message)), Schema: c.redactJSON(schema)}
	if urlMode {
		u := clientside.ScreenURL(req.Params.URL)
		u.ElicitationID = sanitize.Line(req.Params.ElicitationID)
		ereq.URL = &u
	}
	c.h.em.Emit(engine.Event{Type: engine.EventElicitationRequest, Data: ereq})
	defer c.h.client.hold(c)() // the person's time is not the call's

	ectx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(c.ctx, func() { cancel(context.Cause(c.ctx)) })
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
		a = answer{err: clientside.ErrAbandoned}
	}
	if a.err != nil {
		// The person (or the host) went away: tell the server the request
		// was cancelled rather than fail the protocol exchange.
		c.h.em.Emit(engine.Event{Type: engine.EventElicitationResolved, Data: ElicitationResolvedData{Server: c.srv.Name, Action: "cancel"}})
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	switch a.resp.Action {
	case "accept", "decline", "cancel":
	default:
		a.resp = engine.ElicitResponse{Action: "decline"}
	}
	c.h.em.Emit(engine.Event{Type: engine.EventElicitationResolved, Data: ElicitationResolvedData{Server: c.srv.Name, Action: a.resp.Action}})
	res := &mcp.ElicitResult{Action: a.resp.Action}
	if a.resp.Action == "accept" && !urlMode {
		res.Content = a.resp.Content
		if res.Content == nil {
			res.Content = map[string]any{}
		}
	}
	return res, nil
}
