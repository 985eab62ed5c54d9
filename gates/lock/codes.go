package lock

import (
	"fmt"
	"slices"

	"github.com/relavium/relavium/fault"
)

// Error codes (E940–E943).
const (
	CodeBadLock   fault.Code = "E940" // the lock file does not parse, is too large or is of an unknown version
	CodeDrift     fault.Code = "E941" // mcp check: the live servers differ from the lock (or the recording)
	CodeWriteLock fault.Code = "E942" // the lock file could not be written; the old one is left as it was
	CodeNoLock    fault.Code = "E943" // mcp check: there is no lock file (run relavium mcp lock first)
)

// Codes registers the error codes package lock owns.
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeBadLock, Class: fault.Usage, Meaning: "the lock file does not parse, is over 16 MiB or is of an unknown version"},
	{Code: CodeDrift, Class: fault.Failure, Meaning: "mcp check: the live servers differ from the lock (or the recording); the diff is printed"},
	{Code: CodeWriteLock, Class: fault.Failure, Meaning: "the lock file could not be written; the old one is left as it was"},
	{Code: CodeNoLock, Class: fault.Usage, Meaning: "mcp check: there is no lock file (run `relavium mcp lock` first)"},
}

// Error is a lock failure or a drift found by check (Data: the Diff).
type Error struct{ fault.Base }

func newErr(code fault.Code, msg string, cause error) *Error {
	return &Error{Base: fault.Base{ErrCode: code, Msg: msg, Cause: cause, Exit: codes.Exit(code)}}
}

// DriftError is check's failure: the servers differ from d.Against; the
// diff is its data.
func DriftError(d *Diff) error {
	n := len(d.Lines()) - len(d.Notes)
	e := newErr(CodeDrift, fmt.Sprintf("%d difference(s) from %s", n, d.Against), nil)
	e.Data = d
	return e
}
