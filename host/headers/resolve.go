package headers

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/expand"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/secrets"
)

// minHiddenLiteral is the shortest literal header value redacted wherever it
// appears: shorter ones hold no credential worth the name and would garble
// the text around them (a value holding a secret is always redacted).
const minHiddenLiteral = 4

// Resolve resolves every static header of a network server: each
// {{secrets.NAME}} from store (secrets receives name → value, for
// redaction), each name and resolved value checked again (the declaration
// was checked when it was read; a secret's value is checked only here).
// hidden is every whole value to redact. Every missing secret is named at
// once (E520); a header that cannot be sent is E594. No value is ever put
// in an error.
//
// A secret not in bound is never read: the person did not bind it to this
// server's origin (E523). An {{env.VAR}} (SecretTemplate names it env.VAR)
// is read from environ, relavium's environment, under the same rule: it is
// bound to the origin as env.VAR, and secrets receives it as env.VAR (shown
// as {{env.VAR}}); an unset VAR is E880.
func Resolve(server string, hs []Header, bound []string, store secrets.SecretStore, environ []string, secrets map[string]string) (out http.Header, hidden []string, err error) {
	if len(hs) == 0 {
		return nil, nil, nil
	}
	if len(hs) > netguard.MaxHeaders {
		return nil, nil, headerErr(server, "", fmt.Sprintf("%d headers; a server takes at most %d", len(hs), netguard.MaxHeaders))
	}
	out = http.Header{}
	var missing []*failure.Error
	total := 0
	for _, h := range hs {
		if f, why := netguard.CheckHeaderName(h.Name); f != netguard.HeaderOK {
			return nil, nil, headerErr(server, "", why)
		}
		if _, dup := out[http.CanonicalHeaderKey(h.Name)]; dup {
			return nil, nil, headerErr(server, h.Name, "it is given twice")
		}
		literals, refs, ok := consent.SecretTemplate(h.Value)
		if !ok {
			return nil, nil, headerErr(server, h.Name, "a {{…}} in its value is not exactly {{secrets.NAME}} or {{env.VAR}}")
		}
		var b strings.Builder
		holdsSecret := false
		for i, lit := range literals {
			b.WriteString(lit)
			if i == len(refs) {
				break
			}
			var v string
			if name, isEnv := strings.CutPrefix(refs[i], consent.EnvBindingPrefix); isEnv {
				val, set := expand.AmbientValue(environ, name)
				if !set {
					return nil, nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeEnvRefUnset, Exit: fault.ExitUsage,
						Msg: "header " + h.Name + " reads {{env." + name + "}} from relavium's environment, and " + name + " is not set: set it"}, Server: server}
				}
				v = val
			} else {
				sv, err := expand.SecretFor(server, "header "+h.Name, refs[i], store)
				if m := expand.MissingOf(err); m != nil {
					missing = append(missing, m...)
					continue
				}
				if err != nil {
					return nil, nil, err
				}
				v = sv
			}
			if !slices.Contains(bound, refs[i]) {
				return nil, nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeSecretUnbound, Exit: fault.ExitUsage,
					Msg: "header " + h.Name + " names " + consent.BindingRef(refs[i]) + ", which is not bound to this server's origin; nothing was sent (bind it with --allow-secret " + refs[i] + "@ORIGIN or relavium consent grant " + refs[i] + "@ORIGIN)"}, Server: server}
			}
			secrets[refs[i]] = v
			holdsSecret = true
			b.WriteString(v)
		}
		v := b.String()
		if len(missing) == 0 {
			if f, why := netguard.CheckHeaderValue(v); f != netguard.HeaderOK {
				if len(refs) > 0 {
					why += " once " + consent.BindingRefs(refs) + " is resolved"
				}
				return nil, nil, headerErr(server, h.Name, why)
			}
		}
		total += len(h.Name) + len(v)
		out.Set(h.Name, v)
		if holdsSecret || len(v) >= minHiddenLiteral {
			hidden = append(hidden, v)
		}
	}
	if len(missing) > 0 {
		return nil, nil, expand.MissingSecrets(missing)
	}
	if total > netguard.MaxHeaderTotalSize {
		return nil, nil, headerErr(server, "", fmt.Sprintf("the headers come to %d bytes; a server's headers are at most %d", total, netguard.MaxHeaderTotalSize))
	}
	// Longest first, so a value holding another is replaced whole.
	sort.Slice(hidden, func(i, j int) bool { return len(hidden[i]) > len(hidden[j]) })
	return out, hidden, nil
}

// headerErr is E594 naming header (or the headers as a whole).
func headerErr(server, header, why string) *failure.Error {
	msg := "static headers cannot be sent: " + why
	if header != "" {
		msg = "header " + header + " cannot be sent: " + why
	}
	return &failure.Error{Base: fault.Base{ErrCode: failure.CodeHeader, Exit: fault.ExitUsage, Msg: msg}, Server: server}
}

// injector sets a server's static headers on every request the SDK
// makes (the go-sdk transports have no header field of their own). The
// names were checked: none is one the transport or the protocol sets.
type injector struct {
	inner  http.RoundTripper
	h      http.Header
	status *atomic.Int32 // the last 401 or 403 answered (conn.authStatus)
}

// With wraps rt so every request carries h; rt itself when h is
// empty. A 401 or 403 answer is noted in status.
func With(rt http.RoundTripper, h http.Header, status *atomic.Int32) http.RoundTripper {
	if len(h) == 0 {
		return rt
	}
	return injector{inner: rt, h: h, status: status}
}

func (hi injector) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context()) // a RoundTripper must not modify the caller's request
	for k, v := range hi.h {
		r.Header[k] = slices.Clone(v)
	}
	resp, err := hi.inner.RoundTrip(r)
	if err == nil && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
		hi.status.Store(int32(resp.StatusCode))
	}
	return resp, err
}

// CloseIdleConnections reaches the guard's connection pool.
func (hi injector) CloseIdleConnections() {
	if ci, ok := hi.inner.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}
