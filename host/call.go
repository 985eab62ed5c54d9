package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/host/deadline"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/route"
)

// Call validates args against the tool's compiled schema and calls it on its
// server, routed by id. The call is bounded by CallOptions.Timeout (else
// 60 s); cancelling ctx cancels it at the server (notifications/cancelled).
// When the caller passes opts.OnProgress, the server is asked for progress
// (a progress token): each notification goes to OnProgress and as an
// agent:tool_progress event, all of it delivered before Call returns. A tool error is a result
// with IsError set; a result whose text exceeds 1 MiB is an error (E512),
// never half a result.
func (h *Host) Call(ctx context.Context, id engine.ToolID, args json.RawMessage, opts engine.CallOptions) (*engine.ToolResult, error) {
	h.mu.Lock()
	if h.closing {
		h.mu.Unlock()
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeHostClosed, Msg: "the MCP host is closed"}}
	}
	t, ok := h.byID[id]
	if !ok {
		h.mu.Unlock()
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeUnknownTool, Msg: fmt.Sprintf("no admitted tool has id %q", id)}}
	}
	h.calls.Add(1)
	h.callSeq++
	seq := h.callSeq
	h.mu.Unlock()
	defer h.calls.Done()

	c := t.conn
	if f := c.failure(); f != nil {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "is not running", Cause: f}, Server: c.srv.Name}
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if t.validate != nil {
		if err := t.validate(args); err != nil {
			return nil, err
		}
	}
	// The call ends when the caller cancels, when its server or the host goes
	// away (Close cancels before it closes anything), or at one of its
	// deadlines (host/deadline: idle and hard, paused while the person is
	// asked something on the server's behalf).
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(c.ctx, func() { cancel(context.Cause(c.ctx)) })
	defer stop()
	dl, untrack := h.client.track(c, func(paused int) *deadline.Call { return h.newDeadline(c, t.def.Name, opts.Timeout, paused, cancel) })
	defer untrack()
	tctx := c.trapRefusals(callCtx)

	params := &mcp.CallToolParams{Name: t.def.Tool, Arguments: args}
	var stream *route.Stream
	var token string
	if opts.OnProgress != nil {
		// Progress is asked of the server only when the caller takes it: a
		// progress token costs every request and response its _meta.
		token = "relavium-" + strconv.FormatUint(seq, 10)
		onProgress := opts.OnProgress
		stream = route.NewStream(c, func(p engine.Progress) { dl.Touch(); onProgress(p) })
		h.router.Add(token, stream)
		params.SetProgressToken(token)
	}

	endLogs := c.logs.Begin(seq, opts.OnLog)
	res, err := c.session().CallTool(tctx, params)
	endLogs()
	if stream != nil {
		h.router.Remove(token)
		stream.Drain()
	}
	if err != nil {
		if tctx.Err() != nil && c.failure() == nil {
			c.cancelsOwed.Add(1) // the SDK is sending notifications/cancelled
		}
		return nil, c.callFailure(ctx, tctx, dl.Cause(), t.def.Name, err)
	}
	out, err := convertResult(t.def.Name, res)
	if err == nil {
		c.redactResult(out)
		if out.IsError {
			for _, part := range out.Content {
				c.explainDenial(part.Text)
			}
		}
	}
	if he := (*failure.Error)(nil); errors.As(err, &he) {
		he.Server = c.srv.Name // the envelope names the server, as for every call failure
	}
	return out, err
}

// callFailure classifies a failed call when it is classified: the caller's
// cancellation wins (a person who pressed Esc is not told the server was
// slow), then the server's end or the host's shutdown, then the deadline.
func (c *conn) callFailure(ctx, tctx context.Context, deadline *deadline.Cause, tool string, err error) error {
	if ctx.Err() != nil {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeCallCancelled, Msg: tool + " cancelled", Cause: context.Cause(ctx)}, Server: c.srv.Name}
	}
	if c.ctx.Err() != nil {
		cause := context.Cause(c.ctx)
		var se *failure.Error
		if errors.As(cause, &se) && se.ErrCode == failure.CodeCredentialRefused {
			if e := c.credentialRefused(tool, err); e != nil {
				return e // said for this call
			}
		}
		if errors.As(cause, &se) {
			return &failure.Error{Base: fault.Base{ErrCode: se.ErrCode, Msg: tool + ": the server " + se.Msg, Cause: se.Cause}, Server: c.srv.Name, ExitStatus: se.ExitStatus, StderrTail: se.StderrTail}
		}
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeCallCancelled, Msg: tool + " cancelled", Cause: cause}, Server: c.srv.Name}
	}
	if errors.Is(context.Cause(tctx), deadline) {
		remedy := deadline.Remedy
		if remedy == "" {
			remedy = "raise it with --timeout"
		}
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeCallDeadline, Msg: deadline.Error() + "; " + remedy}, Server: c.srv.Name}
	}
	// The guard refused this call's own request, or the server's stream the
	// answer was to come on: that is the failure, typed, whatever the SDK
	// made of it. (After the deadline: a lookup the deadline interrupted is
	// not a refusal worth the name.)
	if f := c.signInFailure(tool, err); f != nil {
		return f
	}
	if r := trappedRefusal(tctx); r != nil {
		return &failure.Error{Base: fault.Base{ErrCode: r.Code(), Msg: tool + " refused by the network guard", Cause: r}, Server: c.srv.Name}
	}
	if r := c.stream.refused(); r != nil {
		return &failure.Error{Base: fault.Base{ErrCode: r.Code(), Msg: tool + ": the server was cut off by the network guard", Cause: r}, Server: c.srv.Name}
	}
	if r := c.frameRefusal.Load(); r != nil {
		return &failure.Error{Base: fault.Base{ErrCode: r.ErrCode, Msg: tool + ": the server " + r.Msg}, Server: c.srv.Name}
	}
	if ch := c.child(); ch != nil && ch.WaitExit(200*time.Millisecond) {
		ch.WaitStderr(100 * time.Millisecond)
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerExited, Msg: tool + ": the server exited during the call"}, Server: c.srv.Name, ExitStatus: ch.ExitStatus(), StderrTail: ch.Ring.Tail(c.redactor())}
	}
	if e := c.credentialRefused(tool, err); e != nil {
		return e
	}
	if code, ok := clientside.RelayedDecline(err); ok {
		return &failure.Error{Base: fault.Base{ErrCode: code, Msg: tool + " failed: the server gave up when relavium declined its sampling request", Cause: c.redactErr(err)}, Server: c.srv.Name}
	}
	if !isRPCError(err) {
		if e := c.probeLost(time.Second); e != nil {
			return &failure.Error{Base: fault.Base{ErrCode: e.ErrCode, Msg: tool + ": the server " + e.Msg, Cause: e.Cause}, Server: c.srv.Name}
		}
	}
	return &failure.Error{Base: fault.Base{ErrCode: failure.CodeCallFailed, Msg: tool + " failed", Cause: c.redactErr(err)}, Server: c.srv.Name}
}

// MaxResultMeta bounds a result's _meta kept for the record (64 KiB
// encoded); a larger one is left out.
const MaxResultMeta = 64 << 10

// convertResult turns the SDK result into the engine's, enforcing the 1 MiB
// bound on the text summed across every part (text blocks and embedded text
// resources) before anything of it is handed on.
func convertResult(tool string, res *mcp.CallToolResult) (*engine.ToolResult, error) {
	total := 0
	for _, c := range res.Content {
		switch v := c.(type) {
		case *mcp.TextContent:
			total += len(v.Text)
		case *mcp.EmbeddedResource:
			if v.Resource != nil {
				total += len(v.Resource.Text)
			}
		}
	}
	if total > MaxResultText {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeResultTooLarge, Msg: fmt.Sprintf("%s returned %d bytes of text, over the 1 MiB bound; nothing of it was used", tool, total)}}
	}
	out := &engine.ToolResult{IsError: res.IsError, Content: make([]engine.Content, 0, len(res.Content))}
	for _, c := range res.Content {
		switch v := c.(type) {
		case *mcp.TextContent:
			out.Content = append(out.Content, engine.Content{Type: engine.ContentText, Text: v.Text})
		case *mcp.ImageContent:
			out.Content = append(out.Content, engine.Content{Type: engine.ContentImage, MIMEType: v.MIMEType, Data: v.Data})
		case *mcp.AudioContent:
			out.Content = append(out.Content, engine.Content{Type: engine.ContentAudio, MIMEType: v.MIMEType, Data: v.Data})
		case *mcp.EmbeddedResource:
			if r := v.Resource; r != nil {
				out.Content = append(out.Content, engine.Content{Type: engine.ContentResource, URI: r.URI, MIMEType: r.MIMEType, Text: r.Text, Data: r.Blob})
			}
		case *mcp.ResourceLink:
			out.Content = append(out.Content, engine.Content{Type: engine.ContentResourceLink, URI: v.URI, Name: v.Name, MIMEType: v.MIMEType})
		}
	}
	if len(res.Meta) > 0 {
		// The server's own metadata, kept whole when small; bounded like
		// everything a server sends (what is cut is left out, never half).
		if b, err := json.Marshal(res.Meta); err == nil && len(b) <= MaxResultMeta {
			out.Meta = b
		}
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeCallFailed, Msg: tool + " returned structured content that does not encode", Cause: err}}
		}
		out.Structured = b
	}
	return out, nil
}
