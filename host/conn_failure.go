package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/deadline"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/netguard"
)

// connectFailure classifies a failed connect when it is classified: a
// cancellation of the caller wins over the deadline, the deadline over
// anything the SDK reported after it.
func (c *conn) connectFailure(ctx, cctx context.Context, cause *deadline.Cause, err error) *failure.Error {
	var se *spawnError
	var sbe *sandboxError
	var ge *netguard.Error
	var ee *era.Refusal
	switch {
	case ctx.Err() != nil:
		return c.failure0(failure.CodeCallCancelled, "connect cancelled", context.Cause(ctx))
	case errors.As(err, &ee):
		return c.eraFailure(ee)
	case errors.Is(context.Cause(cctx), cause):
		return c.withProcess(c.failure0(failure.CodeConnectDeadline, cause.Error()+"; raise connect_timeout_ms if the server is just slow to start", nil))
	case errors.As(err, &se):
		return c.failure0(failure.CodeSpawnFailed, "cannot start "+se.command, se.err)
	case errors.As(err, &sbe):
		return c.failure0(sbe.code, sbe.msg, sbe.err)
	}
	if f := c.signInFailure("connect", err); f != nil {
		return f
	}
	switch {
	case errors.As(err, &ge):
		return c.failure0(ge.Code(), "refused by the network guard", ge)
	}
	if r := c.frameRefusal.Load(); r != nil {
		return c.withProcess(c.failure0(r.ErrCode, r.Msg, nil))
	}
	if c.srv.Target != nil {
		if r := c.srv.Target.Refusal(); r != nil {
			return c.failure0(r.Code(), "refused by the network guard", r)
		}
	}
	if e := c.credentialRefused("initialize", err); e != nil {
		return e
	}
	if ch := c.child(); ch != nil && ch.WaitExit(200*time.Millisecond) {
		c.mu.Lock()
		stray := c.stray
		c.mu.Unlock()
		if first, n := stray.FirstLine(); n > 0 {
			return c.withProcess(c.failure0(failure.CodeInitializeFailed, fmt.Sprintf(
				"exited during initialize after writing %d non-JSON line(s) on stdout (the first: %q); stdout is the JSON-RPC stream", n, first), nil))
		}
		return c.withProcess(c.failure0(failure.CodeInitializeFailed, "exited during initialize", nil))
	}
	what := "initialize failed"
	if c.requested() == era.ProtocolModern {
		what = "server/discover failed" // the 2026-07-28 handshake (no initialize is sent)
	}
	return c.withProcess(c.failure0(failure.CodeInitializeFailed, what, err))
}

// failure0 builds a failure of this server.
func (c *conn) failure0(code fault.Code, msg string, cause error) *failure.Error {
	return &failure.Error{Base: fault.Base{ErrCode: code, Msg: msg, Cause: c.redactErr(cause)}, Server: c.srv.Name}
}

// withProcess adds the child's exit status (if it exited by itself) to a
// failure. The stderr tail is added once the child is reaped.
func (c *conn) withProcess(e *failure.Error) *failure.Error {
	if ch := c.child(); ch != nil {
		e.ExitStatus = ch.ExitStatus()
	}
	return e
}

// failStart records a failed start, tears the server down at once (nothing
// of a failed server waits for the others) and reports it.
func (c *conn) failStart(e *failure.Error) {
	c.shutdown()
	if ch := c.child(); ch != nil {
		e.StderrTail = ch.Ring.Tail(c.redactor()) // reaped: the tail is complete
	}
	c.mu.Lock()
	c.fail = e
	c.mu.Unlock()
	c.emit(engine.StateFailed, e)
}
