package fault

import (
	"errors"
	"strings"
)

// Internal is the code of an error that carries none: a bug.
const Internal Code = "E900"

// Coded is implemented by every error that carries a stable code: *Error,
// and the few aggregates that list several errors (config's problems, a
// failed start) or render themselves (a network-guard refusal).
type Coded interface {
	error
	Code() Code
}

// ExitCoder is implemented by errors that choose their exit code.
type ExitCoder interface {
	ExitCode() int
}

// DataCarrier is implemented by errors whose envelope carries data.
type DataCarrier interface {
	ErrorData() any
}

// CodeOf returns the code of the first coded error in err's chain, or
// fallback when there is none.
func CodeOf(err error, fallback Code) Code {
	var c Coded
	if errors.As(err, &c) {
		return c.Code()
	}
	return fallback
}

// ExitOf is the one exit-code mapping: 0 for nil, the exit code the chain
// chooses, else 1.
func ExitOf(err error) int {
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

// MessageOf is err's own human message without its code prefix or cause
// suffix: its Message method when it has one, else its Error text with
// both trimmed (the repository's "CODE: message: cause" shape).
func MessageOf(err error) string {
	if m, ok := err.(interface{ Message() string }); ok {
		return m.Message()
	}
	s := err.Error()
	if c, ok := err.(Coded); ok && c.Code() != "" {
		s = strings.TrimPrefix(s, string(c.Code())+": ")
	}
	if u := errors.Unwrap(err); u != nil {
		if trimmed := strings.TrimSuffix(s, ": "+u.Error()); trimmed != "" {
			s = trimmed
		}
	}
	return s
}

// CauseOf renders the chain below err: a nested coded error as a map of its
// code, message and own cause (so it marshals with sorted keys), anything else as its text, several joined causes as a list; nil when
// there is no cause. clean is applied to every message and text (the
// envelope passes its display sanitizer; nil keeps them as they are).
func CauseOf(err error, clean func(string) string) any {
	if clean == nil {
		clean = func(s string) string { return s }
	}
	u := errors.Unwrap(err)
	if u == nil {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			var out []any
			for _, e := range j.Unwrap() {
				out = append(out, describe(e, clean))
			}
			if len(out) > 0 {
				return out
			}
		}
		return nil
	}
	return describe(u, clean)
}

func describe(err error, clean func(string) string) any {
	if c, ok := err.(Coded); ok {
		return map[string]any{"code": c.Code(), "message": clean(MessageOf(err)), "cause": CauseOf(err, clean)}
	}
	return clean(err.Error())
}
