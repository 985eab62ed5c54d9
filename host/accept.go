package host

import (
	"fmt"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/failure"
)

// Accepted is one tool whose changed definition the person accepted: the
// definition now pinned and the field diff against the pin it replaced.
type Accepted struct {
	Tool    engine.ToolDef          `json:"tool"`
	Changes []discovery.FieldChange `json:"changes"`
}

// Changes returns the field diff of a flagged tool's definition against
// the one the person accepted (nil when the tool is not flagged).
func (h *Host) Changes(id engine.ToolID) ([]discovery.FieldChange, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t, ok := h.byID[id]
	if !ok {
		return nil, false
	}
	return append([]discovery.FieldChange(nil), t.tool.Changes...), true
}

// Accept accepts the definitions the flagged tools ids have now: every
// remembered call approval of each lapses first (consent's approval store),
// then the definition is pinned as the accepted one (discovery's pin store)
// and the flag is cleared. A tool that is not flagged is left alone (not in
// the result). On any failure the tools not yet accepted stay flagged.
func (h *Host) Accept(ids []engine.ToolID) ([]Accepted, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	byConn := map[*conn][]*toolEntry{}
	var order []*conn
	for _, id := range ids {
		t, ok := h.byID[id]
		if !ok {
			return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeUnknownTool, Msg: fmt.Sprintf("no admitted tool has id %q", id)}}
		}
		if !t.def.Changed {
			continue
		}
		if _, seen := byConn[t.conn]; !seen {
			order = append(order, t.conn)
		}
		byConn[t.conn] = append(byConn[t.conn], t)
	}
	var out []Accepted
	for _, c := range order {
		entries := byConn[c]
		tools := make([]*discovery.Tool, 0, len(entries))
		var changes [][]discovery.FieldChange
		for _, t := range entries {
			tools = append(tools, t.tool)
			changes = append(changes, t.tool.Changes)
		}
		if h.opts.Home != "" && c.srv.memory == nil {
			approvals := consent.OpenApprovals(h.opts.Home, nil)
			for _, t := range entries {
				if err := approvals.Lapse(t.def.Server, t.def.Tool); err != nil {
					return out, err
				}
			}
			if err := discovery.NewPinStore(h.opts.Home).Accept(c.identity(), tools); err != nil {
				return out, err
			}
		} else {
			for _, t := range tools {
				t.Def.Changed, t.Changes = false, nil
			}
		}
		for i, t := range entries {
			t.def.Changed = false
			t.tool.Def.Changed = false // kept when the set is renamespaced
			for j := range h.tools {
				if h.tools[j].ID == t.def.ID {
					h.tools[j].Changed = false
				}
			}
			out = append(out, Accepted{Tool: t.def, Changes: changes[i]})
		}
	}
	return out, nil
}
