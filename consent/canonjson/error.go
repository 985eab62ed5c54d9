package canonjson

import "github.com/relavium/relavium/fault"

// CodeNotCanonical is the stable code of an *Error: a value with no faithful
// canonical JSON form. It is package consent's E307.
const CodeNotCanonical fault.Code = "E307"

// Error is a refused value: Path names where it sits in the encoded tree
// ("$", "$.env.A.value", "$.args[2]", "$ key" for an object key; empty from
// the primitives) and Reason says why it has no canonical form.
type Error struct {
	Path   string
	Reason string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Reason
	}
	return e.Path + ": " + e.Reason
}

// Code returns CodeNotCanonical.
func (e *Error) Code() fault.Code { return CodeNotCanonical }

// under prefixes the path of an error found below the current value, so
// paths are built only when something is refused.
func under(err error, prefix string) error {
	if e, ok := err.(*Error); ok {
		e.Path = prefix + e.Path
	}
	return err
}
