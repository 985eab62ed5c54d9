package discovery

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package discovery owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeListFailed, Class: fault.Failure, Meaning: "a tools/list request failed (transport or JSON-RPC error)"},
	{Code: CodeCursorLoop, Class: fault.Failure, Meaning: "the server repeated a cursor it already sent"},
	{Code: CodePageCap, Class: fault.Failure, Meaning: "more pages than the page cap"},
	{Code: CodeEmptyPages, Class: fault.Failure, Meaning: "too many consecutive empty pages"},
	{Code: CodeDeadline, Class: fault.Failure, Meaning: "the whole walk outlived its deadline (60 s)"},
	{Code: CodeCancelled, Class: fault.Failure, Meaning: "the walk was cancelled by its caller"},
	{Code: CodeMalformedPage, Class: fault.Failure, Meaning: "a tools/list result that is not {\"tools\":[...],\"nextCursor\"?:string}"},
	{Code: CodeNotCaptured, Class: fault.Failure, Meaning: "the raw tools/list result was not observed (transport not wrapped, or served from the SDK cache)"},
	{Code: CodeInvalidArgs, Class: fault.Usage, Meaning: "call arguments fail the tool's input schema"},
	{Code: CodeMalformedArgs, Class: fault.Usage, Meaning: "call arguments are not one plain JSON object the validator reads as sent (syntax, duplicate key, invalid UTF-8 or lone surrogate, nesting over 256, an integer beyond 2^53 or a number beyond float64)"},
	{Code: CodePinStore, Class: fault.Failure, Meaning: "the tool-pin store could not be read or written"},
	{Code: CodeUnknownTool, Class: fault.Usage, Meaning: "no admitted tool has this name or id"},
	{Code: CodeInvalidOptions, Class: fault.Failure, Meaning: "discovery called with invalid options (a bug in the caller)"},
}
