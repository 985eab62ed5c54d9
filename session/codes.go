package session

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package session owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeNeedsYes, Class: fault.Usage, Meaning: "mcp call: no --yes, no remembered approval, not in tools_auto_approve, and no one to ask (annotations never count; `data.ways_out` names the ways out)"},
	{Code: CodeCallRefused, Class: fault.Failure, Meaning: "mcp call: the person answered no"},
	{Code: CodeBadAdhoc, Class: fault.Usage, Meaning: "a server added at run time (the workbench palette's connect) is empty, over 4096 bytes, holds a NUL byte, begins with a flag, or is a url of no MCP scheme"},
	{Code: CodeApproveChanged, Class: fault.Usage, Meaning: "an approval asked for a definition changed since it was accepted (accept it first)"},
}
