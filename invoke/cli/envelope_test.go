package cli

import (
	"errors"
	"testing"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/netguard"
)

// conventionalErr is a coded error in the repository's usual shape without a
// Message method: Error() is "CODE: message: cause".
type conventionalErr struct {
	code  fault.Code
	msg   string
	cause error
}

func (e *conventionalErr) Error() string {
	s := string(e.code) + ": " + e.msg
	if e.cause != nil {
		s += ": " + e.cause.Error()
	}
	return s
}
func (e *conventionalErr) Code() fault.Code { return e.code }
func (e *conventionalErr) Unwrap() error    { return e.cause }

// The envelope carries the code and the cause in their own members, so its
// message repeats neither, whichever package's error type it renders.
func TestEnvelopeMessageRepeatsNeitherCodeNorCause(t *testing.T) {
	cause := errors.New("connection refused")
	cases := []struct {
		err  error
		want string
	}{
		{&conventionalErr{code: "E777", msg: "cannot reach the thing", cause: cause}, "cannot reach the thing"},
		{&conventionalErr{code: "E777", msg: "no cause here"}, "no cause here"},
		{&discovery.Error{Base: fault.Base{ErrCode: discovery.CodeInvalidArgs, Msg: "arguments for mcp_demo_echo: bad"}, Server: "demo"}, "server demo: arguments for mcp_demo_echo: bad"},
		{&netguard.Error{Base: fault.Base{ErrCode: netguard.CodeMalformedURL, Msg: "the url does not parse", Cause: cause}}, "the url does not parse"},
		{&Error{ErrCode: CodeBadFlag, Msg: "--x is bad", Cause: cause}, "--x is bad"},
	}
	for _, c := range cases {
		env := ErrorEnvelope(c.err)
		if env.Error.Message != c.want {
			t.Errorf("%T: message %q, want %q", c.err, env.Error.Message, c.want)
		}
	}
	if env := ErrorEnvelope(&conventionalErr{code: "E777", msg: "m", cause: cause}); env.Error.Cause != "connection refused" {
		t.Errorf("the cause still has its own member: %v", env.Error.Cause)
	}
}
