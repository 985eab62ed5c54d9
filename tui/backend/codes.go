package backend

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package tui owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeNotConnected, Class: fault.Failure, Meaning: "a server the request needs is not connected in this session"},
	{Code: CodeUnknownServer, Class: fault.Failure, Meaning: "a server name the session does not declare"},
	{Code: CodeWorkflowServers, Class: fault.Failure, Meaning: "a workflow names a server this session did not connect"},
	{Code: CodeExportFailed, Class: fault.Failure, Meaning: "the session export could not be written"},
	{Code: CodeProgram, Class: fault.Failure, Meaning: "the terminal program failed (the terminal could not be driven)"},
	{Code: CodeSessionClosed, Class: fault.Failure, Meaning: "the session is closing; nothing new starts"},
	{Code: CodeWireExport, Class: fault.Failure, Meaning: "the protocol or network view's export could not be written to <home>/sessions (W, e)"},
	{Code: CodeSaveFailed, Class: fault.Failure, Meaning: "the workbench could not save a part to <home>/saved (s)"},
}
