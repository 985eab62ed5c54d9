package demoserver

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package demoserver owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeBadPort, Class: fault.Usage, Meaning: "demo-server: --port outside 0-65535"},
	{Code: CodeHostNotLoopback, Class: fault.Usage, Meaning: "demo-server: --host is not loopback"},
	{Code: CodeListen, Class: fault.Failure, Meaning: "demo-server: cannot listen (port in use, ...)"},
	{Code: CodeServe, Class: fault.Failure, Meaning: "demo-server: the transport failed while serving, or a broken stdio stream"},
	{Code: CodeNoJSON, Class: fault.Usage, Meaning: "demo-server: --json given (it serves a protocol, not a document)"},
}
