package host

// How a connection ends: by itself (watch notices a server that exits or
// whose session ends) or by shutdown (cancel its calls, close its session,
// reap its process group), and the closed event of a clean end.

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/failure"
)

// watch notices a server that ends by itself: a stdio child that exits, a
// network session that ends. It is marked failed (exit status and stderr
// tail), its in-flight calls fail, it is torn down; the others keep working.
func (c *conn) watch() {
	cs := c.session()
	if cs == nil {
		return
	}
	c.watchDone = make(chan struct{})
	ended := make(chan error, 1)
	go func() { ended <- cs.Wait() }() // returns once the session is closed, by anyone
	go func() {
		defer close(c.watchDone)
		var exited <-chan struct{}
		ch := c.child()
		if ch != nil {
			exited = ch.Exited
		}
		var sessionErr error
		var lost *failure.Error
		select {
		case lost = <-c.lost:
		case <-exited:
			// The child's exit can be seen before the session's end even when
			// the session broke first (a garbage line closes stdin, the child
			// exits on EOF): give the session a moment to say why it ended.
			t := time.NewTimer(500 * time.Millisecond)
			select {
			case sessionErr = <-ended:
				ended <- sessionErr
			case <-t.C:
			}
			t.Stop()
		case sessionErr = <-ended:
			ended <- sessionErr // keep it for the final receive
		case <-c.ctx.Done():
			<-ended // the shutdown that cancelled ctx closes the session
			return
		}
		if c.h.isClosing() || errors.Is(context.Cause(c.ctx), errHostClosing) {
			// The host is closing, or the server is being removed: an
			// end asked for, not a failure.
			<-ended
			return
		}
		var e *failure.Error
		if lost != nil {
			c.endLost(lost, ended)
			return
		}
		// A session that ended on a protocol error (a non-JSON line on
		// stdout, an oversized frame) is what broke the server, even when the
		// child then exits on the closed stdin; an EOF is the child's exit.
		broke := sessionErr != nil && !errors.Is(sessionErr, io.EOF) && !errors.Is(sessionErr, mcp.ErrConnectionClosed)
		if r := c.stream.refused(); r != nil {
			e = c.failure0(r.Code(), "was cut off by the network guard", r)
		} else if r := c.frameRefusal.Load(); r != nil {
			e = c.withProcess(c.failure0(r.ErrCode, r.Msg, nil))
		} else if !broke && ch != nil && ch.WaitExit(200*time.Millisecond) {
			e = c.withProcess(c.failure0(failure.CodeServerExited, "exited mid-session", nil))
		} else if cr := c.credentialRefused("ended the session", sessionErr); cr != nil {
			// The transport ends the session on the 401 or 403 that refused
			// a request: that answer, not the end, is what happened (a call
			// that was refused reads this same cause, whichever saw it first).
			e = cr
		} else {
			e = c.withProcess(c.failure0(failure.CodeConnectionLost, "ended the session", sessionErr))
		}
		if ch != nil {
			ch.WaitStderr(100 * time.Millisecond)
			e.StderrTail = ch.Ring.Tail(c.redactor())
		}
		c.mu.Lock()
		c.fail = e // published complete: calls read it concurrently
		c.mu.Unlock()
		c.cancel(e)
		c.emit(engine.StateFailed, e)
		c.shutdown() // reaps what is left of its process group
		<-ended
		c.h.lostServer(c)
	}()
}

// endLost ends a session that noteLost reported lost (liveness.go): the
// server is failed with that reason, its calls fail with it, the session is
// closed, and the host's reconnect policy takes over.
func (c *conn) endLost(e *failure.Error, ended <-chan error) {
	if c.h.isClosing() || errors.Is(context.Cause(c.ctx), errHostClosing) {
		<-ended // the end asked for closes the session
		return
	}
	c.mu.Lock()
	c.fail = e
	c.mu.Unlock()
	c.cancel(e)
	c.emit(engine.StateFailed, e)
	c.shutdown()
	<-ended
	c.h.lostServer(c)
}

func (c *conn) finishWatch() {
	if c.watchDone != nil {
		<-c.watchDone
	}
}

// shutdown cancels the server's calls and handlers, closes its session and
// reaps its process group. Once only; concurrent callers wait for it.
func (c *conn) shutdown() {
	c.shutOnce.Do(func() {
		c.cancel(errHostClosing)
		defer c.h.client.forget(c)
		c.mu.Lock()
		c.refreshEnded = true
		c.mu.Unlock()
		c.refreshes.Wait() // a tool-list walk and a liveness probe end on the cancel
		if ch := c.child(); ch != nil {
			// While the server still runs (closing the session ends it):
			// its tree is whole, escapees included.
			ch.Tree.Record()
		}
		if cs := c.session(); cs != nil {
			c.awaitCancels(cancelFlush)
			_ = cs.Close()
		}
		if ch := c.child(); ch != nil {
			ch.Terminate(c.h.opts.EOFWait, c.h.opts.Grace)
			c.h.forgetPID(ch.Pid)
		}
		c.mu.Lock()
		client := c.httpClient
		c.mu.Unlock()
		if client != nil {
			client.CloseIdleConnections()
		}
	})
}

// awaitCancels waits until every owed notifications/cancelled was written,
// at most d. A server that died owes nothing (nothing can be written).
func (c *conn) awaitCancels(d time.Duration) {
	deadline := time.Now().Add(d)
	for c.cancelsSent.Load() < c.cancelsOwed.Load() && time.Now().Before(deadline) {
		if f := c.failure(); f != nil {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// closed reports the end of a server that had been live and had not failed.
func (c *conn) closed() {
	c.mu.Lock()
	report := c.everLive && c.fail == nil
	if report {
		c.state = engine.StateClosed
	}
	c.mu.Unlock()
	if report {
		c.emit(engine.StateClosed, nil)
	}
}
func (h *Host) isClosing() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closing
}
