package engine

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package engine owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeToolUnknown, Class: fault.Failure, Meaning: "a tool name the registry does not offer"},
	{Code: CodeMCPCallArgs, Class: fault.Failure, Meaning: "mcp_call arguments that do not fit its schema"},
	{Code: CodeStepCallFailed, Class: fault.Failure, Meaning: "a tool step's call failed (transport, deadline, bounds)"},
	{Code: CodeRunCancelled, Class: fault.Failure, Meaning: "the run's context was cancelled (Ctrl-C, shutdown)"},
	{Code: CodeRunOptions, Class: fault.Failure, Meaning: "Run called without what the workflow needs (a bug in the caller)"},
}
