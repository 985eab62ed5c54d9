package headers

import (
	"fmt"
	"github.com/relavium/relavium/consent"
	"net/http"
	"slices"
	"strings"
)

// Header is one static request header of a network server (config
// `headers`, `--header`): Value is literal text in which each
// {{secrets.NAME}} is resolved at connect from the same secret stores as a
// stdio server's env. A header value is a secret wherever it would be
// shown: String, GoString and MarshalJSON give the name and [REDACTED].
type Header struct {
	Name  string
	Value string
}

// Redacted is what every surface shows in place of a header value.
const Redacted = "[REDACTED]"

func (h Header) String() string { return h.Name + ": " + Redacted }
func (h Header) GoString() string {
	return fmt.Sprintf("host.Header{Name: %q, Value: %q}", h.Name, Redacted)
}

// MarshalJSON shows the name and never the value.
func (h Header) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"name":%q,"value":%q}`, h.Name, Redacted), nil
}

// Names is hs as shown: each name with [REDACTED] for its value, or
// nil when there are none.
func Names(hs []Header) map[string]string {
	if len(hs) == 0 {
		return nil
	}
	m := make(map[string]string, len(hs))
	for _, h := range hs {
		m[h.Name] = Redacted
	}
	return m
}

// HasAuthorization reports whether hs sets Authorization: a server that
// carries its own credential this way is never probed for OAuth.
func HasAuthorization(hs []Header) bool {
	return slices.ContainsFunc(hs, func(h Header) bool { return strings.EqualFold(h.Name, "Authorization") })
}

// CredentialRefused is the message of a server with a static
// Authorization header that answered st (401 or 403) to what: its
// credential is wrong, expired or short of a permission, and such a
// server is never probed for OAuth; the secrets to update are named,
// never a value.
func CredentialRefused(what string, st int, hs []Header) string {
	msg := fmt.Sprintf("%s: the server answered %d %s to the Authorization header declared for it", what, st, http.StatusText(st))
	if st == http.StatusUnauthorized {
		msg += "; the token is wrong or expired"
	} else {
		msg += "; the token lacks a permission, or the server refuses this client"
	}
	for _, h := range hs {
		if _, refs, _ := consent.SecretTemplate(h.Value); strings.EqualFold(h.Name, "Authorization") && len(refs) > 0 {
			msg += " (update " + consent.BindingRefs(refs) + ")"
		}
	}
	return msg + "; a server that declares its own Authorization is never probed for OAuth"
}
