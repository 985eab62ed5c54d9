package session

import (
	"slices"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
)

// exitUsage is the exit code of an error the person fixes by changing
// what they asked (2).
const exitUsage = 2

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

// Approve remembers "always for this definition" for def. A definition
// changed since it was accepted is refused (E548): accept it first.
func (s *Session) Approve(def engine.ToolDef) error {
	if def.Changed {
		return &host.Error{ErrCode: host.CodeApproveChanged, Exit: exitUsage, Server: def.Server,
			Msg: def.Name + "'s definition changed since you accepted it: accept it before remembering an approval"}
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
	for _, srv := range s.servers {
		if srv.Name == def.Server {
			return slices.Contains(srv.ToolsAutoApprove, def.Tool)
		}
	}
	return false
}
