package sandbox

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Error codes package sandbox owns.
const (
	// CodeRequired: sandbox = "required" on a machine that cannot confine.
	CodeRequired fault.Code = "E340"
	// CodeApply: the sandbox could not be applied to the server's process.
	CodeApply fault.Code = "E341"
	// CodeGuarded: network "guarded" refused a target the server asked for.
	CodeGuarded fault.Code = "E342"
)

// Codes registers the error codes package sandbox owns.
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeRequired, Class: fault.Usage, Meaning: `sandbox = "required" on a server, and this machine cannot confine it (the reason is named); nothing is spawned`},
	{Code: CodeApply, Class: fault.Failure, Meaning: "the sandbox could not be applied to a stdio server's process (the server is not started unconfined)"},
	{Code: CodeGuarded, Class: fault.Failure, Meaning: `a server with network = "guarded" asked its proxy for a target the network guard refuses (private or metadata address, or not in allow)`},
}
