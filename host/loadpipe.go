package host

import (
	"encoding/json"
	"fmt"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/direct"
	"github.com/relavium/relavium/host/failure"
)

// The load path (host/direct): on a stdio connection, a load run's
// requests go straight to the server's stdin and their answers are taken
// off its stdout before the SDK decodes anything.

// Pipelined reports whether server's connection can carry a LoadPipe.
func (h *Host) Pipelined(server string) bool {
	c := h.connNamed(server)
	if c == nil || c.failure() != nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.load != nil
}

// LoadPipe opens a pipe for method on server's connection: request i
// carries params[i mod len(params)], and answer is told how each ended
// ("" for success; "jsonrpc CODE", "isError" for a tool's error, "invalid
// answer"). It is E925 on a connection relavium does not read itself line
// by line (anything but stdio): the caller then calls through the SDK.
func (h *Host) LoadPipe(server, method string, params []json.RawMessage, answer func(i int, key string)) (*direct.LoadPipe, error) {
	c := h.connNamed(server)
	if c == nil {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "is not connected"}, Server: server}
	}
	if len(params) == 0 {
		return nil, fmt.Errorf("load pipe: no params")
	}
	c.mu.Lock()
	lines, w := c.load, c.loadW
	c.mu.Unlock()
	if lines == nil {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeNoRawPath, Msg: method + " under load is pipelined on stdio connections only"}, Server: server}
	}
	if f := c.failure(); f != nil {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "is not running", Cause: f}, Server: server}
	}
	return lines.Open(c.ctx, server, w, method, params, answer)
}

// LoadToolPipe is LoadPipe for tools/call of the admitted tool id: request
// i carries argument set i mod len(sets), each validated against the tool's
// schema here, once (a run of refusals measures nothing).
func (h *Host) LoadToolPipe(id engine.ToolID, sets []json.RawMessage, answer func(i int, key string)) (*direct.LoadPipe, error) {
	h.mu.Lock()
	t, ok := h.byID[id]
	h.mu.Unlock()
	if !ok {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeUnknownTool, Msg: fmt.Sprintf("no admitted tool has id %q", id)}}
	}
	params := make([]json.RawMessage, len(sets))
	for n, args := range sets {
		if err := h.Validate(id, args); err != nil {
			return nil, err
		}
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		p, err := json.Marshal(struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}{t.def.Tool, args})
		if err != nil {
			return nil, err
		}
		params[n] = p
	}
	return h.LoadPipe(t.conn.srv.Name, "tools/call", params, answer)
}
