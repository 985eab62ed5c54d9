package config

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host/netguard"
)

// Header is one static request header of a network server, in authored
// order. Value is literal text in which each {{secrets.NAME}} is resolved
// at connect; it is a secret wherever it would be shown: String, GoString
// and MarshalJSON give the name and [REDACTED], and no message quotes it.
type Header struct {
	Name  string
	Value string
	Pos   Pos // the header's key
}

// Redacted stands for a header value on every surface.
const Redacted = "[REDACTED]"

func (h Header) String() string { return h.Name + ": " + Redacted }
func (h Header) GoString() string {
	return fmt.Sprintf("config.Header{Name: %q, Value: %q}", h.Name, Redacted)
}

// MarshalJSON shows the name and never the value.
func (h Header) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"name":%q,"value":%q}`, h.Name, Redacted), nil
}

// StaticAuthorization reports whether the server declares its own
// Authorization header: such a server is never probed for OAuth.
func (s *Server) StaticAuthorization() bool {
	return slices.ContainsFunc(s.Headers, func(h Header) bool { return strings.EqualFold(h.Name, "Authorization") })
}

// headers checks a network server's `headers` table, in authored order:
// each name an HTTP token the guard lets a person set (netguard.
// CheckHeaderName), given once (names are case-insensitive), each value a
// string without control characters whose every {{…}} is exactly
// {{secrets.NAME}} or {{env.VAR}} (consent.SecretTemplate: each sent only
// once bound to the server's origin, the variable as env.VAR); at most
// netguard.MaxHeaders of them. A value is never
// echoed in a message.
func (c *checker) headers(f *field, path string) []Header {
	t, ok := c.table(f, path, `a table of Name = "value" entries`)
	if !ok {
		return nil
	}
	before := len(c.problems)
	if len(t.fields) > netguard.MaxHeaders {
		c.add(CodeHeaderValue, f.keyPos, path, "declares %d headers; a server takes at most %d", len(t.fields), netguard.MaxHeaders)
		return nil
	}
	out := []Header{}
	seen := map[string]*field{}
	total := 0
	for _, e := range t.fields {
		p := join(path, e.key)
		switch fault, why := netguard.CheckHeaderName(e.key); fault {
		case netguard.HeaderBadName:
			c.add(CodeHeaderName, e.keyPos, p, "%s", why)
			continue
		case netguard.HeaderReserved:
			c.add(CodeHeaderReserved, e.keyPos, p, "%s", why)
			continue
		}
		canon := http.CanonicalHeaderKey(e.key)
		if first, dup := seen[canon]; dup {
			c.add(CodeHeaderName, e.keyPos, p, "%s is declared twice (first as %q at %d:%d); header names are case-insensitive: give it once",
				canon, first.key, first.keyPos.Line, first.keyPos.Col).Related = []Pos{first.keyPos}
			continue
		}
		seen[canon] = e
		var value string
		switch e.val.kind {
		case kindString:
			value = e.val.str
		case kindBad:
			continue
		default:
			c.add(CodeType, e.at(), p, "header values are strings, got %s (quote it)", e.val.kind)
			continue
		}
		if _, _, ok := consent.SecretTemplate(value); !ok {
			c.add(CodeHeaderSecretRef, e.at(), p, "a {{…}} in a header value must be a whole {{secrets.NAME}} reference (NAME: letters, digits, '_', '-', '.'; not beginning env.), e.g. \"Bearer {{secrets.linear}}\", or {{env.VAR}} with no default (a default would be a credential written in the file); anything else would be sent literally")
			continue
		}
		if fault, why := netguard.CheckHeaderValue(value); fault != netguard.HeaderOK {
			c.add(CodeHeaderValue, e.at(), p, "%s", why)
			continue
		}
		total += len(e.key) + len(value)
		out = append(out, Header{Name: e.key, Value: value, Pos: e.keyPos})
	}
	if total > netguard.MaxHeaderTotalSize {
		c.add(CodeHeaderValue, f.keyPos, path, "the headers come to %d bytes; a server's headers are at most %d", total, netguard.MaxHeaderTotalSize)
	}
	if len(c.problems) != before {
		return nil
	}
	return out
}
