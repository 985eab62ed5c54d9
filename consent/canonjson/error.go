package canonjson

import "github.com/relavium/relavium/fault"

// CodeNotCanonical is the stable code of an *Error: a value with no faithful
// canonical JSON form. It is package consent's E307.
const CodeNotCanonical fault.Code = "E307"

// Error is a refused value: Path names where it sits in the encoded tree
// ("$", "$.env.A.value", "$.args[2]", "$ key" for an object key; empty from
// the primitives) and Reason says why it has no canonical form. Its code
// (CodeNotCanonical) and the shared methods are fault.Base's; its text has
// no code prefix (consent quotes it inside its own E307).
type Error struct {
	fault.Base
	Path   string
	Reason string
}

// refused is the error of a value with no canonical form, at the path the
// callers above it prefix.
func refused(reason string) *Error {
	return &Error{Base: fault.Base{ErrCode: CodeNotCanonical}, Reason: reason}
}

// Message is "path: reason" (the reason alone at no path).
func (e *Error) Message() string {
	if e.Path == "" {
		return e.Reason
	}
	return e.Path + ": " + e.Reason
}

func (e *Error) Error() string { return e.Message() }

// under prefixes the path of an error found below the current value, so
// paths are built only when something is refused.
func under(err error, prefix string) error {
	if e, ok := err.(*Error); ok {
		e.Path = prefix + e.Path
	}
	return err
}
