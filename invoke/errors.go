package invoke

import (
	"errors"
	"fmt"
)

// Exit codes: 0 success; 1 a runtime failure or a failed or cancelled run;
// 2 an authored or usage error, or consent no one was there to give.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
)

// Coded is implemented by every relavium error that carries a stable code.
// Packages define their own error types (consent must not import invoke) and
// satisfy this interface; the envelope reads it with errors.As.
type Coded interface {
	error
	Code() string
}

// ExitCoder is implemented by errors that choose their exit class; an error
// without it exits 1.
type ExitCoder interface {
	ExitCode() int
}

// DataCarrier is implemented by errors whose envelope also carries data (for
// example consent's pending[] list).
type DataCarrier interface {
	ErrorData() any
}

// Error is invoke's own coded error.
type Error struct {
	ErrCode string
	Msg     string
	Cause   error
	Exit    int
	Data    any
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.ErrCode, e.Msg, e.Cause)
	}
	return e.ErrCode + ": " + e.Msg
}

// Code returns the stable error code.
func (e *Error) Code() string { return e.ErrCode }

// ExitCode returns the exit class (1 when unset).
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

// Usage and dispatch error codes.
const (
	CodeUnknownCommand = "E100" // no such command
	CodeUnknownFlag    = "E101" // no such flag for this command
	CodeBadFlag        = "E102" // a flag value that does not parse
	CodeBadArgs        = "E103" // too few or too many positional arguments
	CodeGroupCommand   = "E104" // a command group named without a subcommand
	CodeNestedJSON     = "E105" // JSON on the command line (--args, a KEY=VALUE value) nested deeper than 256 levels
	CodeInternal       = "E900" // a bug: an error without a code
)

func usageErr(code, format string, a ...any) *Error {
	return &Error{ErrCode: code, Msg: fmt.Sprintf(format, a...), Exit: ExitUsage}
}

// ExitCodeOf returns the exit code an error maps to.
func ExitCodeOf(err error) int {
	if err == nil {
		return ExitOK
	}
	var ec ExitCoder
	if errors.As(err, &ec) {
		if c := ec.ExitCode(); c != 0 {
			return c
		}
	}
	return ExitFailure
}

// CodeOf returns the stable code of err, or CodeInternal.
func CodeOf(err error) string {
	var c Coded
	if errors.As(err, &c) {
		return c.Code()
	}
	return CodeInternal
}
