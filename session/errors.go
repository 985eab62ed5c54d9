package session

import "github.com/relavium/relavium/fault"

// Error codes the session core raises when it asks about a tool call (in
// host's range E540–E548, beside mcp call's own: they are the call
// confirmation's, which every face shares).
const (
	CodeNeedsYes       fault.Code = "E542" // mcp call: no --yes, no remembered approval, not in tools_auto_approve, and no one to ask
	CodeCallRefused    fault.Code = "E545" // mcp call: the person answered no
	CodeApproveChanged fault.Code = "E548" // an approval asked for a definition changed since it was accepted (accept it first)
)
