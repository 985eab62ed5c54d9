package host

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/direct"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/proc"
	"github.com/relavium/relavium/host/stream"
)

// transport builds the server's mcp.Transport. stdio spawns its child inside
// Connect (the connect deadline covers the spawn); the network transports
// exist only through the guard (guarded.go).
func (c *conn) transport() (mcp.Transport, error) {
	tr, err := c.baseTransport()
	if err != nil {
		return nil, err
	}
	// discovery reads every tools/list result raw (duplicate keys, property
	// order, canonical sizes): it wraps the connection, or for Streamable
	// HTTP the http client, never the SDK's streamable connection.
	tr, c.capture = discovery.WrapTransport(tr)
	return tr, nil
}

func (c *conn) baseTransport() (mcp.Transport, error) {
	switch {
	case c.srv.memory != nil:
		c.observed = true
		return observedTransport{inner: c.rec.Transport(c.srv.memory), c: c}, nil
	case c.srv.Transport == TransportStdio:
		c.observed = true
		return &stdioTransport{c: c}, nil
	}
	return c.networkTransport()
}

// spawnError is a stdio command that could not be started at all.
type spawnError struct {
	command string
	err     error
}

func (e *spawnError) Error() string { return fmt.Sprintf("cannot start %s: %v", e.command, e.err) }
func (e *spawnError) Unwrap() error { return e.err }

// stdioTransport spawns the approved command in its own process group, in
// the digested cwd, with the clean environment, and speaks newline-delimited
// JSON over its stdin/stdout. relavium owns the process: it waits for it,
// keeps its stderr in a ring and signals its group.
type stdioTransport struct{ c *conn }

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := t.c.srv.Stdio
	cf, err := t.c.confine(r, t.c.args, t.c.env)
	if err != nil {
		return nil, err
	}
	command, args, env := r.Command, t.c.args, t.c.env
	if cf.argv != nil {
		command, args, env = cf.argv[0], cf.argv[1:], cf.env
	}
	ch, err := proc.Spawn(command, args, env, r.Cwd, cf.policy)
	if err != nil {
		cf.release()
		return nil, &spawnError{command: r.Command, err: err}
	}
	ch.Release = cf.release
	stray := &stream.Stray{}
	t.c.mu.Lock()
	t.c.ch = ch
	t.c.stray = stray
	t.c.everLive = true
	t.c.mu.Unlock()
	t.c.h.addPID(ch.Pid)
	t.c.emit(engine.StateConnecting, nil) // again, now with the pid
	// The capture (set by transport before Connect) takes a tools/list
	// page off the byte stream first, before the SDK decodes anything
	// (discovery.Capture.Reader): discovery judges such a page tool by tool,
	// a tool nested too deep included, instead of the session ending over
	// it. Every other message, and the stub page the SDK reads in its
	// place, goes through the depth gauge.
	// The wire recorder taps the bytes themselves (innermost), so a page
	// the capture takes off the stream is recorded as the server sent it.
	// Outermost of all, a line that is not JSON-RPC (a banner) is taken off
	// the stream and kept with the server's stderr (host/stream). Next, the
	// answers of a load run (mcp bench) are taken off, before the recorder
	// and the SDK (host/direct); its requests share stdin's lock.
	refuse := func(e *fault.Error) { t.c.frameRefusal.CompareAndSwap(nil, e) }
	load := direct.NewLoadLines(stream.NewStdoutFilter(ch.Stdout, ch.Ring, stray, t.c.strayWarning, refuse))
	stdin := direct.NewSharedStdin(ch.Stdin)
	t.c.mu.Lock()
	t.c.load, t.c.loadW = load, stdin
	t.c.mu.Unlock()
	reader := stream.NewDepthReader(t.c.capture.Reader(t.c.rec.Lines(load)), refuse)
	inner, err := (&mcp.IOTransport{Reader: reader, Writer: t.c.rec.LineWriter(stdin)}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &observedConn{Connection: inner, c: t.c}, nil
}

// observedTransport wraps an in-process transport the same way.
type observedTransport struct {
	inner mcp.Transport
	c     *conn
}

func (t observedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	inner, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.c.mu.Lock()
	t.c.everLive = true
	t.c.mu.Unlock()
	return &observedConn{Connection: inner, c: t.c}, nil
}

// observedConn sees every incoming message in wire order, in the SDK's read
// loop, before the SDK dispatches it. Progress notifications are routed to
// their call's stream right there (a map lookup and a bounded, non-blocking
// enqueue), so every progress notification a server sent before its result
// has been delivered to the call's stream when CallTool returns — the SDK's
// own notification handler runs on a separate goroutine and may lag the
// response. Nothing here blocks.
type observedConn struct {
	mcp.Connection
	c *conn
}

// Write counts the notifications/cancelled the SDK sends (see
// conn.cancelsSent).
func (o *observedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := o.Connection.Write(ctx, msg)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && req.Method == direct.MethodCancelled {
		o.c.cancelsSent.Add(1)
	}
	return err
}

func (o *observedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	o.c.raw.Observe(o.Connection)
	msg, err := o.Connection.Read(ctx)
	for err == nil && o.c.raw.Take(msg) { // an answer to relavium's own request (host/direct)
		msg, err = o.Connection.Read(ctx)
	}
	if err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method == "elicitation/create" {
			o.c.fieldOrders.Remember(req.Params)
		}
		if req, ok := msg.(*jsonrpc.Request); ok && !req.IsCall() && req.Method == "notifications/message" {
			o.c.observedLog(req.Params)
		}
		if req, ok := msg.(*jsonrpc.Request); ok && !req.IsCall() && req.Method == "notifications/progress" {
			var p struct {
				Token    any     `json:"progressToken"`
				Progress float64 `json:"progress"`
				Total    float64 `json:"total"`
				Message  string  `json:"message"`
			}
			if json.Unmarshal(req.Params, &p) == nil {
				o.c.h.router.Deliver(o.c, p.Token, engine.Progress{Progress: p.Progress, Total: p.Total, Message: o.c.redactText(p.Message)})
			}
		}
	}
	return msg, err
}

// strayWarning reports a server's first stray stdout line (host/stream) as
// a warning in its log.
func (c *conn) strayWarning(text string) {
	c.h.em.Emit(engine.Event{Type: engine.EventToolLog, Data: engine.ToolLogData{LogEntry: engine.LogEntry{
		Server: c.srv.Name, Level: "warning", Logger: "relavium", Data: jsonString(text),
	}}})
}
