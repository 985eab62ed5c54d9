package host

import (
	"errors"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/netguard"
)

// signInError is the error an OAuth handler (package oauth) returns: coded,
// with its own exit (E850 names `relavium auth login` and exits 2).
type signInError interface {
	fault.Coded
	ExitCode() int
	SignIn()
}

// signInFailure is the failure of a request the server's sign-in refused:
// the handler's own coded error, or a guard refusal of a url the sign-in
// was sent to (the SDK carries both wrapped; they are the reason, not the
// transport's "request failed"). nil when err is neither.
func (c *conn) signInFailure(what string, err error) *failure.Error {
	if c.srv.OAuth == nil || err == nil {
		return nil
	}
	var se signInError
	if errors.As(err, &se) {
		e := &failure.Error{Base: fault.Base{ErrCode: se.Code(), Msg: what + ": " + fault.MessageOf(se), Cause: errors.Unwrap(se), Exit: se.ExitCode()}, Server: c.srv.Name}
		if dc, ok := se.(fault.DataCarrier); ok {
			e.Data = dc.ErrorData()
		}
		return e
	}
	// A refusal of the server's own address is the connection's, not the sign-in's.
	if r, ok := netguard.AsRefusal(err); ok && !c.srv.Target.SameOrigin(r.URL) {
		return &failure.Error{Base: fault.Base{ErrCode: r.Code(), Msg: what + ": sign-in refused by the network guard", Cause: r, Exit: r.ExitCode()}, Server: c.srv.Name}
	}
	return nil
}

// tokens are the OAuth token values the server's handler holds now (never
// shown: redactText replaces them like a static header's value).
func (c *conn) tokens() []string {
	if h, ok := c.srv.OAuth.(interface{ Hidden() []string }); ok {
		return h.Hidden()
	}
	return nil
}
