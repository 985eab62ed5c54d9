package config

import (
	"encoding/json"
	"errors"
	neturl "net/url"
	"slices"
	"strings"

	"github.com/relavium/relavium/consent/urlref"
	"github.com/relavium/relavium/host/config/mcpjson"
	"github.com/relavium/relavium/host/netguard"
	redactset "github.com/relavium/relavium/redact"
)

// url checks a network server's url as written. Its references are read
// by urlref.Read (where each sits: the origin, or the path and query),
// then the url they expand to with the environment this load was given
// is admitted by the guard, as a literal url is: the person's environment
// is known when the file is read, so a url the guard refuses, or a
// variable that is not set, is found before anything is dialled. A
// {{secrets.NAME}} in the path or query is read at connect, once bound to
// the origin, and a host the person types (TypedHost: a client file's
// ${input:id}, the only secret that may be the host) when the server
// connects, the guard judging the url it makes then; here the guard sees
// a stand-in for each. The url stays as written everywhere it is shown,
// recorded or locked; no value is put in a problem (each is shown as the
// reference it stands for).
func (c *checker) url(u, transport string, allowLocal bool, at Pos, path string) (held bool) {
	refs, err := urlref.Read(u)
	if err != nil {
		c.add(CodeSecretRef, at, path, "%s", err.Error())
		return false
	}
	if len(refs) == 0 {
		return c.admitURL(u, transport, allowLocal, at, path, nil)
	}
	for _, r := range refs {
		switch {
		case r.TypedHost && !slices.Contains(c.typed, r.Secret):
			c.add(CodeSecretRef, at, path, "%s is the url's host: a secret never chooses where to go; only a value the person types for this server (a VS Code file's ${input:id}) may be the host", r.Text())
			return false
		case r.Origin && (mcpjson.SecretLike(r.Name) || mcpjson.SecretLike(r.Secret)):
			c.add(CodeSecretRef, at, path, "%s is in the url's origin, and its name says it is a credential: a credential never chooses where to go (send it in a header, or in the path or query bound to the origin)", r.Text())
			return false
		}
	}
	shown := redactset.New()
	expanded, missing := urlref.Expand(u, refs, func(r urlref.Ref) (string, bool) {
		switch {
		case r.TypedHost:
			// Typed when the server connects, and judged by the guard
			// then, before anything is dialled; here the scheme, port and
			// transport are judged with a name that is no host.
			return "typed-host.invalid", true
		case r.Secret != "":
			return "secret", true
		}
		v, fromEnv, ok := r.EnvValue(c.lookupEnv)
		if fromEnv {
			shown.AddShown(r.Text(), v)
		}
		return v, ok
	})
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for i, r := range missing {
			names[i] = r.Name
		}
		c.add(CodeURLEnvUnset, at, path, "reads %s from relavium's environment, and %s is not set: set it (or give a default, {{env.%s:-…}})",
			refList(missing), strings.Join(names, ", "), names[0])
		return false
	}
	return c.admitURL(expanded, transport, allowLocal, at, path, shown)
}

// heldLocal reports whether the guard refused u only because it is a
// local endpoint the person has not opted into: a loopback or private
// address, or plain http to a name only a private network resolves
// (http://jenkins:8080, a docker-compose service; netguard.PrivateUseName)
// — opted in, such a name is reached only when it resolves to a private
// address. Plain http to any other name stays refused (remote servers
// take https).
func heldLocal(ne *netguard.Error, u string) bool {
	switch ne.Reason {
	case netguard.ReasonPrivateAddress:
		return true
	case netguard.ReasonPlaintextRemote:
		parsed, err := neturl.Parse(u)
		return err == nil && netguard.PrivateUseName(parsed.Hostname())
	}
	return false
}

func refList(refs []urlref.Ref) string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Text()
	}
	return strings.Join(out, ", ")
}

// admitURL asks the network guard, the one owner of url admission. shown
// (nil for a literal url) turns each value the url was expanded with back
// into its reference, in the message and the cause. held is true when the
// url is refused only for its loopback or private address in an entry of
// another client's file (c.holdLocal): admitted as it would be with the
// opt-in, and held for the person's word (Server.LocalHeld).
func (c *checker) admitURL(u, transport string, allowLocal bool, at Pos, path string, shown *redactset.Set) (held bool) {
	err := netguard.AdmitURL(u, transport, allowLocal)
	if err == nil {
		return false
	}
	var ne *netguard.Error
	if c.holdLocal && !allowLocal && errors.As(err, &ne) && heldLocal(ne, u) && netguard.AdmitURL(u, transport, true) == nil {
		return true
	}
	msg := messageOf(err)
	if errors.As(err, &ne) {
		msg = ne.Msg
		if ne.Remedy != "" {
			msg += "; " + ne.Remedy
		}
	}
	cause := causeOf(err)
	if shown != nil {
		msg = shown.Text(msg)
		if b, jerr := json.Marshal(cause); jerr == nil {
			cause = json.RawMessage(shown.JSON(b))
		}
	}
	c.add(CodeURL, at, path, "%s", msg).Cause = cause
	return false
}
