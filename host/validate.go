package host

import (
	"encoding/json"
	"fmt"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
)

// Validate checks args against an admitted tool's input schema, as Call
// does before dispatch, without calling anything: the TUI shows the error
// inline in the call form. Empty args mean {}.
func (h *Host) Validate(id engine.ToolID, args json.RawMessage) error {
	h.mu.Lock()
	t, ok := h.byID[id]
	h.mu.Unlock()
	if !ok {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeUnknownTool, Msg: fmt.Sprintf("no admitted tool has id %q", id)}}
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if t.validate == nil {
		return nil
	}
	return t.validate(args)
}
