package discovery

import (
	"fmt"
	"io"

	"github.com/relavium/relavium/fault"
)

// Error codes (E580–E599). A failed walk fails the server's start
// (fail loud: a server never starts with silently fewer tools).
const (
	CodeListFailed     fault.Code = "E580" // a tools/list request failed (transport or JSON-RPC error)
	CodeCursorLoop     fault.Code = "E581" // the server repeated a cursor it already sent
	CodePageCap        fault.Code = "E582" // more pages than the page cap
	CodeEmptyPages     fault.Code = "E583" // too many consecutive empty pages
	CodeDeadline       fault.Code = "E584" // the whole walk outlived its deadline (60 s)
	CodeCancelled      fault.Code = "E585" // the walk was cancelled by its caller
	CodeMalformedPage  fault.Code = "E586" // a tools/list result that is not {"tools":[...],"nextCursor"?:string}
	CodeNotCaptured    fault.Code = "E587" // the raw tools/list result was not observed (transport not wrapped, or served from the SDK cache)
	CodeInvalidArgs    fault.Code = "E588" // call arguments fail the tool's input schema
	CodeMalformedArgs  fault.Code = "E589" // call arguments are not a JSON object (syntax, duplicate key, invalid UTF-8, too deep)
	CodePinStore       fault.Code = "E590" // the tool-pin store could not be read or written
	CodeUnknownTool    fault.Code = "E591" // no admitted tool has this name or id
	CodeInvalidOptions fault.Code = "E592" // discovery called with invalid options (a bug in the caller)
)

// Error is a failed discovery walk, a refused call argument or a pin-store
// failure. Code, cause and the shared methods are fault.Base's; the server
// it names is part of its message.
type Error struct {
	fault.Base
	Server string
	// Pointer and Rule are set for CodeInvalidArgs / CodeMalformedArgs.
	Pointer string
	Rule    string
}

// Message is the human message: "server NAME: " and Msg.
func (e *Error) Message() string {
	if e.Server != "" {
		return "server " + e.Server + ": " + e.Msg
	}
	return e.Msg
}

// Error renders "CODE: server NAME: message: cause" (the cause whole).
func (e *Error) Error() string {
	s := string(e.ErrCode) + ": " + e.Message()
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	return s
}

// ExitCode is the code's class (discovery's Codes): 2 for arguments a
// person or an author supplied, 1 otherwise.
func (e *Error) ExitCode() int { return codes.Exit(e.ErrCode) }

// ErrorData carries the JSON pointer and rule of an argument failure.
func (e *Error) ErrorData() any {
	if e.Pointer == "" && e.Rule == "" {
		return nil
	}
	return map[string]string{"pointer": e.Pointer, "rule": e.Rule}
}

// maxHuman bounds the text WriteHuman shows of one error.
const maxHuman = 4096

// WriteHuman renders the error for a person.
func (e *Error) WriteHuman(w io.Writer) error {
	var err error
	if e.Rule != "" {
		ptr := e.Pointer
		if ptr == "" {
			ptr = "(the arguments object)"
		}
		_, err = fmt.Fprintf(w, "relavium: %s: %s\n  at %s, rule %s\n", e.ErrCode, e.Msg, ptr, e.Rule)
	} else {
		// The cause may be the server's own words (a JSON-RPC error
		// message): what a terminal would act on is shown escaped.
		_, err = fmt.Fprintf(w, "relavium: %s: %s\n", e.ErrCode, escapeText(e.Error()[len(e.ErrCode)+2:], maxHuman, false))
	}
	return err
}
