package tui

import "fmt"

// Error codes owned by the TUI (E700–E719; E700 is themes'). They are
// stable: the README documents them.
const (
	CodeNotConnected    = "E701" // a server the request needs is not connected in this session
	CodeUnknownServer   = "E702" // a server name the session does not declare
	CodeWorkflowServers = "E703" // a workflow names a server this session did not connect
	CodeExportFailed    = "E704" // the session export could not be written
	CodeProgram         = "E705" // the terminal program failed (the terminal could not be driven)
	CodeSessionClosed   = "E706" // the session is closing; nothing new starts
)

// Error is the TUI's coded error.
type Error struct {
	ErrCode string
	Msg     string
	Cause   error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.ErrCode, e.Msg, e.Cause)
	}
	return e.ErrCode + ": " + e.Msg
}

// Code returns the stable error code.
func (e *Error) Code() string { return e.ErrCode }

// Message is the human message without code or cause.
func (e *Error) Message() string { return e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }
