package replay

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Error codes (E950–E952).
const (
	CodeNoServer    fault.Code = "E950" // the recording holds no such server, or several and none was chosen
	CodeUnrecorded  fault.Code = "E951" // replay: a request the recording holds no answer for (a JSON-RPC error to the client)
	CodeNoHandshake fault.Code = "E952" // the recording holds no initialize answer for the server
)

// Codes registers the error codes package replay owns.
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeNoServer, Class: fault.Usage, Meaning: "the recording holds no such server, or several and `--server` did not choose one"},
	{Code: CodeUnrecorded, Class: fault.Failure, Meaning: "replay: a request the recording holds no answer for (sent to the client as a JSON-RPC error naming the method)"},
	{Code: CodeNoHandshake, Class: fault.Usage, Meaning: "the recording holds no initialize answer for the server, so it cannot be replayed"},
}

// Error is a replay failure.
type Error struct{ fault.Base }

func newErr(code fault.Code, msg string) *Error {
	return &Error{Base: fault.Base{ErrCode: code, Msg: msg, Exit: codes.Exit(code)}}
}
