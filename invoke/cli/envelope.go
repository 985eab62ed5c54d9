package cli

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
)

// Envelope is the one JSON document a --json invocation writes to stdout.
type Envelope struct {
	OK    bool           `json:"ok"`
	Data  any            `json:"data,omitempty"`
	Error *EnvelopeError `json:"error,omitempty"`
}

// EnvelopeError is the error member of a failed envelope.
type EnvelopeError struct {
	Code    fault.Code `json:"code"`
	Message string     `json:"message"`
	Cause   any        `json:"cause"`
}

// causeOf renders the chain below a coded error: a nested coded error keeps
// its code; anything else is its message, cleaned like every message.
func causeOf(err error) any { return fault.CauseOf(err, sanitize.Text) }

// MessageOf is the human message of a coded error without its code prefix or
// cause suffix.
func MessageOf(err error) string { return fault.MessageOf(err) }

// ErrorEnvelope builds the envelope for err. Messages are for people and
// can quote a server (a protocol error's text), so they are cleaned like
// the human form: even `jq -r .error.message` prints no control sequence.
// The data an error carries (an isError result) stays exact.
func ErrorEnvelope(err error) Envelope {
	env := Envelope{OK: false}
	var c Coded
	if errors.As(err, &c) {
		env.Error = &EnvelopeError{Code: c.Code(), Message: sanitize.Text(MessageOf(c)), Cause: causeOf(c)}
	} else {
		env.Error = &EnvelopeError{Code: CodeInternal, Message: sanitize.Text(err.Error())}
	}
	var d fault.DataCarrier
	if errors.As(err, &d) {
		env.Data = d.ErrorData()
	}
	return env
}

// WriteEnvelope writes exactly one JSON document and a newline.
func WriteEnvelope(w io.Writer, env Envelope) error {
	b, err := MarshalJSON(env)
	if err != nil {
		b, _ = MarshalJSON(ErrorEnvelope(&Error{ErrCode: CodeInternal, Msg: "cannot encode result", Cause: err}))
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// MarshalJSON is json.Marshal followed by sanitize.EscapeJSON: the one way
// invoke encodes a JSON document that a person, a pipe or a file receives
// (envelopes, NDJSON events, audit lines, mcp serve answers). Server text
// keeps its exact value, but every code point the display sanitizer would
// remove (C1 controls, DEL, bidi controls, zero-width characters, Unicode
// tags; encoding/json already escapes C0) is written as a \uXXXX escape,
// so `cat`, `tee` or `less -R` of the output cannot deliver it raw.
func MarshalJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return sanitize.EscapeJSON(b), nil
}
