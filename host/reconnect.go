package host

import (
	"context"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/failure"
)

// ReconnectPolicy dials a network server (http, sse, websocket) again after
// its session was lost (the server went away, refused the connection, or
// forgot the session): attempt n waits Base·2^(n-1), at most Max, and after
// Attempts failed attempts the server stays failed until someone connects
// it. A stdio server is never restarted on its own (a program that crashed
// is the person's to restart: r in the workbench). A new session is
// opened each time; within a live session the SDK already resumes a broken
// Streamable HTTP stream (GET with Last-Event-ID), which is all the
// transports allow.
type ReconnectPolicy struct {
	Attempts int           // default 8
	Base     time.Duration // default 1 s
	Max      time.Duration // default 30 s
}

func (p *ReconnectPolicy) delay(attempt int) time.Duration {
	base, most := p.Base, p.Max
	if base <= 0 {
		base = time.Second
	}
	if most <= 0 {
		most = 30 * time.Second
	}
	d := base
	for i := 1; i < attempt && d < most; i++ {
		d *= 2
	}
	return min(d, most)
}

func (p *ReconnectPolicy) attempts() int {
	if p.Attempts <= 0 {
		return 8
	}
	return p.Attempts
}

// retrying is a server being dialled again; Remove, Close or a connect of
// the same name by anyone else calls it off.
type retrying struct{ cancel context.CancelFunc }

type retryKey struct{}

// lostServer starts dialling a network server again once its session was
// lost, when the host has a ReconnectPolicy.
func (h *Host) lostServer(c *conn) {
	p := h.opts.Reconnect
	if p == nil || c.srv.Target == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing || h.findLocked(c.srv.Name) != c {
		return
	}
	if old := h.retrying[c.srv.Name]; old != nil {
		old.cancel()
	}
	ctx, cancel := context.WithCancel(h.ctx)
	r := &retrying{cancel: cancel}
	h.retrying[c.srv.Name] = r
	h.retries.Add(1)
	go h.redial(context.WithValue(ctx, retryKey{}, r), r, c, p)
}

// redial connects the lost server's declaration again with backoff.
func (h *Host) redial(ctx context.Context, r *retrying, old *conn, p *ReconnectPolicy) {
	defer h.retries.Done()
	defer func() {
		r.cancel()
		h.mu.Lock()
		if h.retrying[old.srv.Name] == r {
			delete(h.retrying, old.srv.Name)
		}
		h.mu.Unlock()
	}()
	name := old.srv.Name
	last := old.failure()
	for attempt := 1; attempt <= p.attempts(); attempt++ {
		d := p.delay(attempt)
		h.emitRetry(old, attempt, d, last)
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		h.mu.Lock()
		cur := h.findLocked(name)
		h.mu.Unlock()
		switch {
		case cur == old:
			h.remove(name)
		case cur != nil:
			return // connected again meanwhile
		}
		err := h.Add(ctx, old.srv)
		if err == nil || ctx.Err() != nil {
			return
		}
		if e, ok := err.(*failure.Error); ok {
			last = e
		}
	}
}

// emitRetry says when the next attempt is: the server's failed state (with
// the last failure) and the wait (ServerData.RetryMS) and attempt number.
func (h *Host) emitRetry(old *conn, attempt int, d time.Duration, last *failure.Error) {
	d0 := engine.ServerData{Server: old.srv.Name, State: engine.StateFailed, Transport: old.srv.Transport,
		RetryMS: d.Milliseconds(), RetryAttempt: attempt}
	if last != nil {
		d0.ErrorCode, d0.Error = last.ErrCode, last.Message()
		if last.Cause != nil {
			d0.Error += ": " + last.Cause.Error()
		}
	}
	h.em.Emit(engine.Event{Type: engine.EventServer, Data: d0})
}

// callOffRetry stops dialling server again, unless ctx is that retry's own.
func (h *Host) callOffRetry(ctx context.Context, name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.retrying[name]
	if r == nil {
		return
	}
	if own, _ := ctx.Value(retryKey{}).(*retrying); own == r {
		return
	}
	r.cancel()
	delete(h.retrying, name)
}
