package netguard

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/relavium/relavium/fault"
)

// decide applies the address policy to every answer of one resolution and
// returns the addresses that may be dialled, in resolver order:
//   - any metadata or special-purpose answer refuses the whole resolution;
//   - all public: the target must be https (wss is refused: remote websocket)
//     and must not be declared local (a local server resolving public is
//     refused, not downgraded);
//   - all local: the target must carry the opt-in;
//   - a mix of public and local is refused.
func (r ranges) decide(t *Target, answers []netip.Addr) ([]netip.Addr, *Error) {
	classes := make([]class, 0, len(answers))
	for _, a := range answers {
		classes = append(classes, r.classify(a))
	}
	for _, c := range classes {
		if c.kind == kindMetadata {
			return nil, metadataRefusal(c).at(t.shown, c.addr.String())
		}
	}
	var public, local []netip.Addr
	for _, c := range classes {
		switch c.kind {
		case kindSpecial:
			return nil, specialRefusal(c).at(t.shown, c.addr.String())
		case kindPublic:
			public = append(public, c.addr)
		case kindLocal:
			local = append(local, c.addr)
		}
	}
	switch {
	case len(public) > 0 && len(local) > 0:
		return nil, refusal(CodeMixedResolution, ReasonMixedResolution, fault.ExitFailure,
			"%s resolved to public (%s) and private (%s) addresses at once; the guard will not pick one",
			t.hostString(), public[0], local[0]).at(t.shown, local[0].String()).
			fix("make the name resolve to one kind of address, or declare the address itself")
	case len(local) > 0:
		if !t.local {
			return nil, privateRefusal(t, local[0].String())
		}
		return local, nil
	case t.local && !t.secure:
		return nil, localPublicRefusal(t, public[0].String())
	case t.websocket:
		return nil, remoteWebsocketRefusal(t, public[0].String())
	case !t.secure:
		return nil, plaintextRefusal(t, public[0].String())
	}
	return public, nil
}

func metadataRefusal(c class) *Error {
	via := ""
	if c.embedded.IsValid() {
		via = fmt.Sprintf(" (it embeds %s)", c.embedded)
	}
	return refusal(CodeMetadata, ReasonMetadata, fault.ExitFailure,
		"%s is a cloud metadata endpoint%s: %s; no opt-in reaches it", c.addr, via, c.detail)
}

func specialRefusal(c class) *Error {
	e := refusal(CodeSpecialAddress, ReasonSpecialAddress, fault.ExitFailure,
		"%s is in %s, which no opt-in opens", c.addr, c.detail)
	if c.embedded.IsValid() {
		e.Msg += fmt.Sprintf(" (it embeds %s; write that address itself if it is a local server)", c.embedded)
	}
	return e
}

func privateRefusal(t *Target, addr string) *Error {
	what := fmt.Sprintf("%s resolves to the local address %s", t.HostPort(), addr)
	switch {
	case t.host.literal.IsValid():
		what = fmt.Sprintf("%s is a local address", addr)
	case isLocalName(t.host.name):
		what = fmt.Sprintf("%s names this machine (RFC 6761)", t.HostPort())
	}
	return refusal(CodePrivateAddress, ReasonPrivateAddress, fault.ExitFailure,
		"%s and the server does not set allow_local_endpoint", what).
		at(t.shown, addr).
		fix(fmt.Sprintf("if %s is yours, set allow_local_endpoint = true on this server (it opens exactly %s)", t.HostPort(), t.HostPort()))
}

func localPublicRefusal(t *Target, addr string) *Error {
	return refusal(CodeLocalResolvedPublic, ReasonLocalResolvedPublic, fault.ExitFailure,
		"%s is declared local (allow_local_endpoint) but %s is a public address; plaintext %s:// to a public address is refused, not downgraded",
		t.HostPort(), addr, t.scheme).at(t.shown, addr).
		fix("use https:// for a remote server, or point the url at the local address")
}

func remoteWebsocketRefusal(t *Target, addr string) *Error {
	https := "https://" + strings.TrimPrefix(strings.TrimPrefix(t.shown, "wss://"), "ws://")
	return refusal(CodeRemoteWebsocket, ReasonRemoteWebsocket, fault.ExitFailure,
		"%s is a remote websocket server; websocket carries neither the pinned dial nor the 4 MiB message bound, so it must be local and opted in", t.HostPort()).
		at(t.shown, addr).
		fix(fmt.Sprintf(`declare transport = "http" (Streamable HTTP) with url = %q, which carries the same server safely`, https))
}

func plaintextRefusal(t *Target, addr string) *Error {
	return refusal(CodePlaintextRemote, ReasonPlaintextRemote, fault.ExitFailure,
		"%s:// to the remote host %s is refused; remote servers need https", t.scheme, t.HostPort()).
		at(t.shown, addr).
		fix("use an https:// url (or set allow_local_endpoint = true if the server is on this machine or your private network)")
}

func resolutionRefusal(t *Target, cause error) *Error {
	e := refusal(CodeResolution, ReasonResolution, fault.ExitFailure,
		"%s did not resolve to any address", t.hostString()).at(t.shown, t.HostPort())
	if cause != nil {
		e.Msg = fmt.Sprintf("%s did not resolve", t.hostString())
		e.Cause = cause
	}
	return e
}

func scopeRefusal(t *Target, what, where string) *Error {
	return refusal(CodeScope, ReasonScope, fault.ExitFailure,
		"%s %s is outside the admitted origin %s://%s; the guard only connects the url the server was declared with",
		what, where, t.scheme, t.HostPort()).at(t.shown, where).
		fix("declare that url as its own server if it is meant to be reached")
}

func notAdmitted(why string) *Error {
	return refusal(CodeNotAdmitted, ReasonNotAdmitted, fault.ExitFailure, "the target was not admitted by this guard: %s", why)
}
