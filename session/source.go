package session

import (
	"errors"
	"fmt"
	"strings"

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

// coded is an error with a stable code, as every relavium package's is.
type coded interface {
	error
	Code() fault.Code
}

func (e *sourcedError) Error() string { return e.where + ": " + e.err.Error() }
func (e *sourcedError) Unwrap() error { return e.err }

// Code is the wrapped error's code ("" for an uncoded one).
func (e *sourcedError) Code() fault.Code {
	var c coded
	if errors.As(e.err, &c) {
		return c.Code()
	}
	return ""
}

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

// messageOf is the coded error's own message, without code or cause.
func messageOf(err error) string {
	var c coded
	if errors.As(err, &c) {
		err = c
	}
	if m, ok := err.(interface{ Message() string }); ok {
		return m.Message()
	}
	// The repository's "CODE: message: cause" shape, code and cause off.
	s := err.Error()
	if c, ok := err.(coded); ok && c.Code() != "" {
		s = strings.TrimPrefix(s, string(c.Code())+": ")
	}
	if u := errors.Unwrap(err); u != nil {
		if trimmed := strings.TrimSuffix(s, ": "+u.Error()); trimmed != "" {
			s = trimmed
		}
	}
	return s
}
