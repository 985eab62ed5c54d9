package host

import (
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/headers"
)

// Header is one static request header of a network server (host/headers):
// its value is a secret wherever it would be shown.
type Header = headers.Header

// Redacted is what every surface shows in place of a header value.
const Redacted = headers.Redacted

// HeaderNames is hs as shown: each name with [REDACTED] for its value, or
// nil when there are none.
func HeaderNames(hs []Header) map[string]string { return headers.Names(hs) }

// HasAuthorization reports whether hs sets Authorization: a server that
// carries its own credential this way is never probed for OAuth.
func HasAuthorization(hs []Header) bool { return headers.HasAuthorization(hs) }

// StaticAuthorization reports whether the endpoint declares a static
// Authorization header (see HasAuthorization).
func (e *Endpoint) StaticAuthorization() bool { return HasAuthorization(e.Headers) }

// credentialRefused is the failure of a server with a static Authorization
// header that answered 401 or 403 (E595): its credential is wrong, expired
// or short of a permission. Such a server is never probed for OAuth, so
// this is the whole story; the secrets to update are named, never a value.
// nil for any other failure.
func (c *conn) credentialRefused(what string, err error) *failure.Error {
	st := int(c.authStatus.Load())
	if st == 0 || !c.srv.StaticAuthorization() {
		return nil
	}
	msg := headers.CredentialRefused(what, st, c.srv.Headers)
	return &failure.Error{Base: fault.Base{ErrCode: failure.CodeCredentialRefused, Msg: msg, Cause: c.redactErr(err)}, Server: c.srv.Name}
}

// redactResult redacts every secret value of the session, and the OAuth
// tokens this server's sign-in holds, from a result it returned (text and
// structured content): a server that repeats a credential — its own or
// one it was never sent — does not get it shown, exported or written.
func (c *conn) redactResult(out *engine.ToolResult) {
	if out == nil {
		return
	}
	for i := range out.Content {
		out.Content[i].Text = c.redactText(out.Content[i].Text)
	}
	if len(out.Structured) > 0 {
		out.Structured = c.redactJSON(out.Structured)
	}
}
