package host

import (
	"context"
	"errors"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
)

// DefaultPing bounds one ping when the caller's context has no deadline.
const DefaultPing = 10 * time.Second

// Ping sends ping to server and returns the round-trip time: from the
// request written to its answer read, as the session sees them. It is
// bounded by ctx (DefaultPing without a deadline), the server's lifetime
// and the host's. A server that is not in the set, or failed, is E514; no
// answer in time, or an error answer, is E598.
func (h *Host) Ping(ctx context.Context, server string) (time.Duration, error) {
	h.mu.Lock()
	c := h.findLocked(server)
	closing := h.closing
	h.mu.Unlock()
	switch {
	case closing:
		return 0, &failure.Error{Base: fault.Base{ErrCode: failure.CodeHostClosed, Msg: "the MCP host is closed"}}
	case c == nil:
		return 0, &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "is not connected in this session"}, Server: server}
	}
	if f := c.failure(); f != nil {
		return 0, &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "is not running", Cause: f}, Server: server}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultPing)
		defer cancel()
	}
	pctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(c.ctx, func() { cancel(context.Cause(c.ctx)) })
	defer stop()
	began := time.Now()
	err := c.session().Ping(c.trapRefusals(pctx), nil)
	rtt := time.Since(began)
	if err == nil {
		return max(rtt, time.Microsecond), nil
	}
	var se *failure.Error
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return 0, &failure.Error{Base: fault.Base{ErrCode: failure.CodePingFailed, Msg: "no answer to ping within " + time.Since(began).Round(time.Millisecond).String()}, Server: server}
	case ctx.Err() != nil:
		return 0, &failure.Error{Base: fault.Base{ErrCode: failure.CodeCallCancelled, Msg: "ping cancelled", Cause: context.Cause(ctx)}, Server: server}
	case c.ctx.Err() != nil && errors.As(context.Cause(c.ctx), &se):
		return 0, &failure.Error{Base: fault.Base{ErrCode: se.ErrCode, Msg: "ping: the server " + se.Msg, Cause: se.Cause}, Server: server}
	}
	return 0, &failure.Error{Base: fault.Base{ErrCode: failure.CodePingFailed, Msg: "ping failed", Cause: c.redactErr(err)}, Server: server}
}
