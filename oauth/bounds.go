package oauth

import (
	"fmt"
	"slices"
)

// Bounds of a token record: the one definition the way in (a token
// response, a registration, a 401/403 challenge), Save (before writing) and
// read (after reading) all check, so the store never writes a record it
// would then refuse to read, and no server can make it hold one.
const (
	maxRecord  = 256 << 10 // a record file
	maxRecords = 1024      // records auth ls reads
	// MaxToken bounds an access or refresh token and a client secret: real
	// tokens, JWTs with many claims included, are a few KiB, and most
	// servers refuse a request header near 16 KiB.
	MaxToken = 16 << 10
	maxText  = 4 << 10 // a url, the issuer, the client id, the server name, the token type
	// MaxScopes bounds the scopes a record holds (granted, and wanted by a
	// step-up) and a challenge may ask for; maxScope bounds one scope.
	MaxScopes = 128
	maxScope  = 256
)

// bounds says which field of r is out of bounds (never its value), or nil.
func (r *Record) bounds() error {
	for _, f := range []struct{ name, v string }{{"server", r.Server}, {"url", r.URL}, {"issuer", r.Issuer}, {"resource", r.Resource},
		{"token_url", r.TokenURL}, {"client_id", r.ClientID}, {"token_auth", r.TokenAuth}, {"token_type", r.TokenType}} {
		if len(f.v) > maxText {
			return fmt.Errorf("its %s is %d bytes, over the %d KiB relavium keeps", f.name, len(f.v), maxText>>10)
		}
	}
	for _, f := range []struct{ name, v string }{{"access token", r.AccessToken}, {"refresh token", r.RefreshToken}, {"client secret", r.ClientSecret}} {
		if err := checkToken(f.name, f.v); err != nil {
			return err
		}
	}
	if err := checkScopes("granted scopes", r.Scopes); err != nil {
		return err
	}
	return checkScopes("wanted scopes", r.Wanted)
}

// checkToken: at most MaxToken bytes of printable ASCII (RFC 6749's
// VSCHAR), which is all a token may be and all a header may carry.
func checkToken(name, v string) error {
	if len(v) > MaxToken {
		return fmt.Errorf("its %s is %d bytes, over the %d KiB relavium keeps", name, len(v), MaxToken>>10)
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] > 0x7e {
			return fmt.Errorf("its %s holds a byte that is not printable ASCII (0x%02x at %d)", name, v[i], i)
		}
	}
	return nil
}

// checkScopes: at most MaxScopes distinct scopes, each 1 to maxScope bytes
// of RFC 6749's NQCHAR.
func checkScopes(name string, s []string) error {
	if len(s) > MaxScopes {
		return fmt.Errorf("its %s are %d, over the %d relavium keeps", name, len(s), MaxScopes)
	}
	for i, v := range s {
		if err := checkScope(v); err != nil {
			return fmt.Errorf("its %s: %w", name, err)
		}
		if slices.Contains(s[:i], v) {
			return fmt.Errorf("its %s name %q twice", name, clip(v))
		}
	}
	return nil
}

func checkScope(v string) error {
	if v == "" || len(v) > maxScope {
		return fmt.Errorf("a scope of %d bytes (1 to %d are kept)", len(v), maxScope)
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return fmt.Errorf("a scope holds 0x%02x, which no scope may (RFC 6749 NQCHAR)", c)
		}
	}
	return nil
}

// boundScopes is a server's list of scopes as relavium takes it: each
// distinct scope once, in its first place; a scope no scope may be, or more
// than MaxScopes of them, is an error saying so.
func boundScopes(s []string) ([]string, error) {
	var out []string
	for _, v := range s {
		if slices.Contains(out, v) {
			continue
		}
		if err := checkScope(v); err != nil {
			return nil, err
		}
		if len(out) == MaxScopes {
			return nil, fmt.Errorf("more than %d distinct scopes", MaxScopes)
		}
		out = append(out, v)
	}
	return out, nil
}

// capScopes is first then rest, each distinct scope once, at most
// MaxScopes: what a step-up remembers as wanted (the newest ask first).
func capScopes(first, rest []string) []string {
	out := union(nil, first)
	for _, v := range rest {
		if len(out) == MaxScopes {
			break
		}
		if !slices.Contains(out, v) && checkScope(v) == nil {
			out = append(out, v)
		}
	}
	if len(out) > MaxScopes {
		out = out[:MaxScopes]
	}
	return out
}
