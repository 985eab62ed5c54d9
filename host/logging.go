package host

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/browse"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/route"
)

// Server logs: the level asked of each server (logging/setLevel, at connect
// and on request), and where each notifications/message lands.
//
// MCP gives a log notification no request id, so a log is attributed to a
// call only when no other reading is possible: it was read off the wire
// (in order with the responses: stdio, sse, websocket, in-process) while
// exactly one request of relavium's was in flight on that server, and that
// request is a call that takes logs (CallOptions.OnLog). Everything else —
// two calls at once, a browse in flight, a log between calls, and every log
// over Streamable HTTP, whose notifications the SDK hands over on a goroutine
// of its own and so out of order with the answers — goes to the server
// itself (agent:tool_log with no call id). A log is never put under a call
// it may not belong to.

// LogLevels returns the MCP log levels, most verbose first.
func LogLevels() []string { return route.LogLevels() }

// ValidLogLevel reports whether level is one of LogLevels.
func ValidLogLevel(level string) bool { return route.ValidLogLevel(level) }

// LogLevelRank orders levels: debug 0 … emergency 7 (route.LogLevelRank).
func LogLevelRank(level string) int { return route.LogLevelRank(level) }

// SetLogLevel asks server for level with logging/setLevel. A server that
// does not offer logging is refused before anything is sent (E920); an
// unknown level is the caller's mistake (E921).
func (h *Host) SetLogLevel(ctx context.Context, server, level string) error {
	if !ValidLogLevel(level) {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeLogLevelUnknown, Exit: fault.ExitUsage,
			Msg: "log level " + sanitize.Line(level) + " is not one of debug, info, notice, warning, error, critical, alert, emergency"}}
	}
	return h.browse(ctx, server, "logging/setLevel", func(ctx context.Context, c *conn, cs *mcp.ClientSession) error {
		if browse.Capabilities(cs).Logging == nil {
			return &failure.Error{Base: fault.Base{ErrCode: failure.CodeNotOffered, Msg: "does not offer logging (no logging capability)"}, Server: server}
		}
		// A modern session (2026-07-28) has no logging/setLevel: the level
		// rides on every request (logLevelMeta), so setting it is enough.
		if era.Negotiated(cs) < era.ProtocolModern {
			if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)}); err != nil {
				return err
			}
		}
		c.mu.Lock()
		c.logLevel = level
		c.mu.Unlock()
		return nil
	})
}

// level is the log level asked of this server: the one last set, else the
// host's.
func (c *conn) level() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.logLevel != "" {
		return c.logLevel
	}
	return c.h.opts.LogLevel
}

// logEntry builds the display entry of a notifications/message: level and
// logger one-line, data redacted and made a display copy.
func (c *conn) logEntry(level, logger string, data []byte) engine.LogEntry {
	return engine.LogEntry{
		Server: c.srv.Name,
		Level:  sanitize.Line(level),
		Logger: sanitize.Line(c.redactText(logger)),
		Data:   engine.DisplayJSON(c.redactJSON(data)),
	}
}

// onLog is the SDK's log handler, used where the connection is not observed
// (Streamable HTTP): out of wire order, so always the server's.
func (c *conn) onLog(_ context.Context, req *mcp.LoggingMessageRequest) {
	if req == nil || req.Params == nil {
		return
	}
	p := req.Params
	data, err := json.Marshal(p.Data)
	if err != nil {
		data = nil
	}
	c.serverLog(c.logEntry(string(p.Level), p.Logger, data))
}

// observedLog is a notifications/message read off the wire in order
// (observedConn.Read): it goes to its call when only one can be its.
func (c *conn) observedLog(params json.RawMessage) {
	var p struct {
		Level  string `json:"level"`
		Logger string `json:"logger"`
		Data   any    `json:"data"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	// Re-encoded as the SDK's handler would (Go's encoding): redaction
	// finds a secret in that form, whatever escaping the server chose.
	data, err := json.Marshal(p.Data)
	if err != nil {
		data = nil
	}
	e := c.logEntry(p.Level, p.Logger, data)
	if !c.logs.Route(e) {
		c.serverLog(e)
	}
}

// serverLog emits a log that belongs to the server, not to a call.
func (c *conn) serverLog(e engine.LogEntry) {
	c.h.em.Emit(engine.Event{Type: engine.EventToolLog, Data: engine.ToolLogData{LogEntry: e}})
}

// onProgress is the SDK's progress handler, used where the connection is not
// observed (Streamable HTTP). It runs on the SDK's notification goroutine.
func (c *conn) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	if req == nil || req.Params == nil {
		return
	}
	p := req.Params
	c.h.router.Deliver(c, p.ProgressToken, engine.Progress{Progress: p.Progress, Total: p.Total, Message: c.redactText(p.Message)})
}
