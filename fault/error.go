package fault

import (
	"fmt"
	"strings"
)

// Error is relavium's coded error. Its fields are set where it is raised;
// Table.New sets Exit from the code's class.
type Error struct {
	ErrCode Code
	Msg     string // what happened, for a person; without code or cause
	Cause   error
	Exit    int // the process exit code; 0 means 1
	// Data is carried in the --json envelope's data member when non-nil.
	Data any
}

// Error renders "CODE: message: cause". A cause carrying the same code (a
// refusal kept for its data) is not made to say the code twice.
func (e *Error) Error() string {
	s := string(e.ErrCode) + ": " + e.Msg
	if e.Cause != nil {
		cause := e.Cause.Error()
		if c, ok := e.Cause.(interface{ Code() Code }); ok && c.Code() == e.ErrCode {
			cause = strings.TrimPrefix(cause, string(e.ErrCode)+": ")
		}
		s += ": " + cause
	}
	return s
}

// Code returns the stable error code.
func (e *Error) Code() Code { return e.ErrCode }

// Message is the human message without code or cause.
func (e *Error) Message() string { return e.Msg }

// ExitCode is the process exit code (1 when unset).
func (e *Error) ExitCode() int {
	if e.Exit == 0 {
		return ExitFailure
	}
	return e.Exit
}

// ErrorData returns the envelope data, if any.
func (e *Error) ErrorData() any { return e.Data }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

func sprintf(format string, a []any) string {
	if len(a) == 0 {
		return format
	}
	return fmt.Sprintf(format, a...)
}

// Base is Error under the name a package's own coded error embeds it by,
// when it carries more than fault.Error holds (a server's stderr tail, a
// refused address): a struct cannot embed a field named Error beside its
// own Error method. The embedding type keeps Code, ExitCode, Unwrap and
// the fields, and overrides only what its extras change.
type Base = Error
