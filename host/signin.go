package host

import (
	"errors"
	"net/url"
	"strings"

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
	if r, ok := netguard.AsRefusal(err); ok {
		if c.ownOrigin(r.URL) {
			// The server's own address was refused (it did not resolve,
			// or resolved somewhere the guard refuses): that is the
			// connection's refusal, not the sign-in's, whether or not a
			// sign-in would have followed.
			return nil
		}
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

// ownOrigin reports whether u (a refused url, as the guard reports it) is
// at the server's own origin.
func (c *conn) ownOrigin(u string) bool {
	if c.srv.Target == nil || u == "" {
		return false
	}
	a, errA := url.Parse(u)
	b, errB := url.Parse(c.srv.Target.Redacted())
	return errA == nil && errB == nil && strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}
