package session

import (
	"errors"
	"fmt"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/config"
)

// withSource names where the refused server is declared.
func withSource(err error, s config.Server) error {
	if s.Pos.File == "" {
		return err
	}
	return &sourcedError{err: err, where: fmt.Sprintf("%s:%d:%d", s.Pos.File, s.Pos.Line, s.Pos.Col)}
}

// sourcedError prefixes a coded error with the declaration's position; it
// keeps the code, exit class and data of the error it wraps.
type sourcedError struct {
	err   error
	where string
}

func (e *sourcedError) Error() string { return e.where + ": " + e.err.Error() }
func (e *sourcedError) Unwrap() error { return e.err }

// Code is the wrapped error's code ("" for an uncoded one).
func (e *sourcedError) Code() fault.Code { return fault.CodeOf(e.err, "") }

// ExitCode is the wrapped error's exit class (0: the default).
func (e *sourcedError) ExitCode() int {
	var x interface{ ExitCode() int }
	if errors.As(e.err, &x) {
		return x.ExitCode()
	}
	return 0
}

// Message is the wrapped message with the position in front.
func (e *sourcedError) Message() string { return e.where + ": " + messageOf(e.err) }

// ErrorData is the wrapped error's data.
func (e *sourcedError) ErrorData() any {
	var d interface{ ErrorData() any }
	if errors.As(e.err, &d) {
		return d.ErrorData()
	}
	return nil
}

// messageOf is the own message (without code or cause) of the first coded
// error in err's chain, or of err when none is coded.
func messageOf(err error) string {
	var c fault.Coded
	if errors.As(err, &c) {
		err = c
	}
	return fault.MessageOf(err)
}
