package session

import (
	"context"
	"fmt"
	"slices"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
)

// Clearance is consent.ClearCall over what the person said beforehand:
// yes (--yes: this call), the server's tools_auto_approve, and the
// approval store (read only when it can matter). A store that cannot be
// read clears nothing; its error comes back for a warning. The ad-hoc
// server has neither tools_auto_approve nor remembered approvals. ""
// means ask; never the server's annotations, and for a definition changed
// since it was accepted only yes clears.
func (s *Session) Clearance(def engine.ToolDef, yes, adhoc bool) (consent.Clearance, error) {
	req := consent.CallRequest{Key: ToolKey(def), Yes: yes, AutoApprove: !adhoc && s.AutoApproved(def), Changed: def.Changed}
	var set *consent.ApprovalSet
	var storeErr error
	if !adhoc && !req.Yes && !req.Changed && !req.AutoApprove {
		set, storeErr = s.Approvals().Fold(func(server, tool string) bool { return server == def.Server && tool == def.Tool })
	}
	return consent.ClearCall(req, set), storeErr
}

// ConfirmCall lets a call of def go ahead only on the person's word
// (consent.ClearCall): yes (--yes, this call), the tool's exact name in the
// server's tools_auto_approve, or an approval remembered for this exact
// definition. Otherwise the Asker is asked "this call / always for this
// definition / no" ("always" is not offered for a changed definition or
// the ad-hoc server); with no Asker it is E542 (exit 2) naming the ways
// out. An approval store that cannot be read, or an "always" that cannot
// be remembered, is a warning: the first clears nothing, the second still
// lets this call go ahead.
func (s *Session) ConfirmCall(ctx context.Context, def engine.ToolDef, yes, adhoc bool) error {
	cleared, storeErr := s.Clearance(def, yes, adhoc)
	if cleared != "" {
		return nil
	}
	if storeErr != nil {
		s.warn(sanitize.Line(storeErr.Error()))
	}
	canRemember := !adhoc && !def.Changed
	if s.opts.Asker == nil {
		return NeedsApproval(def, adhoc)
	}
	a, err := s.opts.Asker.ConfirmCall(ctx, def, canRemember)
	if err != nil {
		return err
	}
	switch {
	case a == CallOnce:
		return nil
	case a == CallAlways && canRemember:
		if err := s.Approvals().Approve(ToolKey(def)); err != nil {
			// The person said yes to this call; only remembering failed.
			s.warn("approved for this call only, not remembered: " + sanitize.Line(err.Error()))
		}
		return nil
	}
	return &failure.Error{Base: fault.Base{ErrCode: CodeCallRefused, Msg: def.Name + " was not called (you answered no)"}, Server: def.Server}
}

// CallNeedsApproval is the data of an E542 refusal: which tool, whether its
// definition changed since it was accepted, and the ways out.
type CallNeedsApproval struct {
	Tool        string             `json:"tool"`
	Server      string             `json:"server"`
	Digest      string             `json:"digest"`
	Changed     bool               `json:"changed"`
	Annotations engine.Annotations `json:"annotations"`
	WaysOut     []string           `json:"ways_out"`
}

// NeedsApproval is E542: nobody can be asked, and nothing the person said
// beforehand covers this call.
func NeedsApproval(def engine.ToolDef, adhoc bool) error {
	name := sanitize.Line(def.Name)
	d := &CallNeedsApproval{Tool: def.Name, Server: def.Server, Digest: def.Digest, Changed: def.Changed, Annotations: def.Annotations}
	var msg string
	switch {
	case def.Changed:
		d.WaysOut = []string{
			"relavium mcp accept " + name + " --diff (review the change), then relavium mcp accept " + name,
			"--yes (this call only)",
		}
		msg = fmt.Sprintf("%s was not called: its definition changed since you accepted it, and no one can be asked here; review it with relavium mcp accept %s --diff and accept it with relavium mcp accept %s, or pass --yes to call it this once (a remembered approval or tools_auto_approve does not speak for a changed definition)", name, name, name)
	case adhoc:
		d.WaysOut = []string{"--yes (this call only)"}
		msg = fmt.Sprintf("%s was not called: no one can be asked here; pass --yes to call it (an ad-hoc server has no remembered approvals or tools_auto_approve)", name)
	default:
		tool := sanitize.Line(def.Tool)
		d.WaysOut = []string{
			"--yes (this call only)",
			"an approval remembered for this definition (answer \"always\" when asked on a terminal or in the workbench)",
			fmt.Sprintf("tools_auto_approve = [%q] on server %s in your config", tool, sanitize.Line(def.Server)),
		}
		msg = fmt.Sprintf("%s was not called: no one can be asked here; pass --yes for this call, remember an approval of this definition (answer \"always\" when asked on a terminal or in the workbench), or list %q in tools_auto_approve of server %s", name, tool, sanitize.Line(def.Server))
	}
	if def.Annotations.IsReadOnly() {
		msg += "; the server's read-only hint is its own claim and never skips the question"
	}
	return &failure.Error{Base: fault.Base{ErrCode: CodeNeedsYes, Exit: fault.ExitUsage, Msg: msg, Data: d}, Server: def.Server}
}

// Approve remembers "always for this definition" for def. A definition
// changed since it was accepted is refused (E548): accept it first.
func (s *Session) Approve(def engine.ToolDef) error {
	if def.Changed {
		return &failure.Error{Base: fault.Base{ErrCode: CodeApproveChanged, Exit: fault.ExitUsage, Msg: def.Name + "'s definition changed since you accepted it: accept it before remembering an approval"}, Server: def.Server}
	}
	return s.Approvals().Approve(ToolKey(def))
}

// Approvals is the home's tool-approval store.
func (s *Session) Approvals() *consent.Approvals {
	return consent.OpenApprovals(s.opts.Home, s.opts.Now)
}

// ToolKey is what an approval of def is keyed by.
func ToolKey(def engine.ToolDef) consent.ToolKey {
	return consent.ToolKey{Server: def.Server, Tool: def.Tool, Digest: def.Digest}
}

// AutoApproved reports whether def's server lists the tool's exact name in
// its tools_auto_approve.
func (s *Session) AutoApproved(def engine.ToolDef) bool {
	for _, srv := range s.decl.all() {
		if srv.Name == def.Server {
			return slices.Contains(srv.ToolsAutoApprove, def.Tool)
		}
	}
	return false
}
