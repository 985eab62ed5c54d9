package host

import (
	"context"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/expand"
	"github.com/relavium/relavium/host/failure"
)

// pendingAdd is a server being added: its connect can be called off by
// Remove (or Close) before it joins the set.
type pendingAdd struct {
	cancel context.CancelCauseFunc
}

// Add connects one more server while the host runs: it is checked as Start
// checks its servers, its secrets are resolved before anything is spawned
// or dialled, then it connects and its tools/list is walked under the same
// deadlines. On success its tools join the set, namespaced across every
// server (a tool of another server keeps its id), and its skipped tools are
// reported. On failure nothing of it is left running, it is not in the set,
// and the error is the server's failure (also reported as mcp:server
// failed). A server whose name is in the set, or being added, is refused
// (E517). Close, or Remove of the same name, calls an Add under way off.
func (h *Host) Add(ctx context.Context, s Endpoint) error {
	if err := checkServer(&h.opts, &s); err != nil {
		return err
	}
	if s.Name == "" {
		return badOptions("a server to add has no name")
	}
	h.callOffRetry(ctx, s.Name)
	h.mu.Lock()
	if h.closing {
		h.mu.Unlock()
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeHostClosed, Msg: "the MCP host is closed"}}
	}
	if h.findLocked(s.Name) != nil || h.pending[s.Name] != nil {
		h.mu.Unlock()
		return badOptions("server %s is already in the session", s.Name)
	}
	actx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(h.ctx, func() { cancel(errHostClosing) })
	p := &pendingAdd{cancel: cancel}
	h.pending[s.Name] = p
	h.adds.Add(1)
	h.mu.Unlock()
	defer h.adds.Done()
	defer stop()
	defer cancel(nil)
	done := func() {
		h.mu.Lock()
		if h.pending[s.Name] == p {
			delete(h.pending, s.Name)
		}
		h.mu.Unlock()
	}

	c := newConn(h, s)
	if err := c.prepare(); err != nil {
		done()
		c.cancel(err)
		if m := expand.MissingOf(err); m != nil {
			err = expand.MissingSecrets(m)
		}
		// Said on the event stream too: whoever showed the server
		// resolving sees it fail here, with its code, never waiting on.
		e, ok := err.(*failure.Error)
		if !ok {
			e = &failure.Error{Base: fault.Base{ErrCode: fault.CodeOf(err, failure.CodeStartFailed), Msg: err.Error()}, Server: s.Name}
		}
		c.emit(engine.StateFailed, e)
		return err
	}
	c.start(actx)
	if f := c.failure(); f != nil {
		done()
		return f
	}

	h.mu.Lock()
	if h.pending[s.Name] != p || h.closing {
		// Removed, or the host began closing, while it connected.
		delete(h.pending, s.Name)
		h.mu.Unlock()
		c.shutdown()
		c.closed()
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeCallCancelled, Msg: "connect called off: the server was removed or the host closed"}, Server: s.Name}
	}
	delete(h.pending, s.Name)
	h.conns = append(h.conns, c)
	h.renamespace()
	c.watch()
	c.mu.Lock()
	skipped := c.cat.Skipped
	c.mu.Unlock()
	h.mu.Unlock()
	h.emitSkipped(skipped)
	return nil
}

// Remove takes a server out of the set while the host runs: its tools
// leave the catalogue (the others keep their ids and are renamespaced), its
// calls and handlers are cancelled, its session is closed and its process
// group torn down as Close does; Remove returns once its child is reaped.
// A server being added is called off. An unknown name is not an error.
func (h *Host) Remove(name string) error {
	h.callOffRetry(context.Background(), name)
	return h.remove(name)
}

// remove is Remove without calling a redial off (the redial's own).
func (h *Host) remove(name string) error {
	h.mu.Lock()
	if p := h.pending[name]; p != nil {
		delete(h.pending, name)
		p.cancel(errHostClosing)
	}
	c := h.findLocked(name)
	if c == nil {
		h.mu.Unlock()
		return nil
	}
	conns := h.conns[:0:0]
	for _, x := range h.conns {
		if x != c {
			conns = append(conns, x)
		}
	}
	h.conns = conns
	h.renamespace()
	h.mu.Unlock()
	c.shutdown()
	c.finishWatch()
	c.closed()
	return nil
}

// Reconnect removes the server and adds it again as it was declared: a
// new session (and, for stdio, a new process), its tools walked again.
func (h *Host) Reconnect(ctx context.Context, name string) error {
	h.mu.Lock()
	c := h.findLocked(name)
	h.mu.Unlock()
	if c == nil {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "is not connected in this session"}, Server: name}
	}
	if err := h.Remove(name); err != nil {
		return err
	}
	return h.Add(ctx, c.srv)
}

// Failed reports whether server is in the set and failed since it
// connected (it exited, or its session was lost).
func (h *Host) Failed(server string) bool {
	h.mu.Lock()
	c := h.findLocked(server)
	h.mu.Unlock()
	return c != nil && c.failure() != nil
}

// Has reports whether server is in the set (connected, or failed since).
func (h *Host) Has(server string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.findLocked(server) != nil
}

// findLocked is the server named name in the set (h.mu held).
func (h *Host) findLocked(name string) *conn {
	for _, c := range h.conns {
		if c.srv.Name == name {
			return c
		}
	}
	return nil
}

// emitSkipped reports tools refused at discovery.
func (h *Host) emitSkipped(skipped []engine.SkippedTool) {
	for _, s := range skipped {
		h.em.Emit(engine.Event{Type: engine.EventToolSkipped, Data: engine.ToolSkippedData(s)})
	}
}
