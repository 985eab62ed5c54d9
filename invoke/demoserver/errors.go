package demoserver

import (
	"errors"
	"fmt"
)

// Error codes of the demo server (E800–E819).
const (
	// CodeBadPort: --port is outside 0..65535.
	CodeBadPort = "E800"
	// CodeHostNotLoopback: --host is not a loopback address.
	CodeHostNotLoopback = "E801"
	// CodeListen: the HTTP listener could not be opened (port in use, …).
	CodeListen = "E802"
	// CodeServe: the transport failed while serving.
	CodeServe = "E803"
	// CodeNoJSON: demo-server speaks MCP on its streams; --json has no meaning.
	CodeNoJSON = "E804"
)

// Error is a demo-server failure with a stable code. Usage mistakes exit 2;
// runtime failures exit 1.
type Error struct {
	ErrCode string
	Msg     string
	Cause   error
	Usage   bool
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.ErrCode, e.Msg, e.Cause)
	}
	return e.ErrCode + ": " + e.Msg
}

// Code returns the stable error code.
func (e *Error) Code() string { return e.ErrCode }

// ExitCode is 2 for a usage mistake, 1 otherwise.
func (e *Error) ExitCode() int {
	if e.Usage {
		return 2
	}
	return 1
}

// Message is the text of the envelope's message: without the code, which
// the envelope carries on its own, and without the cause.
func (e *Error) Message() string { return e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

// errServerClosing ends a tool handler's wait when the server shuts down.
var errServerClosing = errors.New("the demo server is shutting down")
