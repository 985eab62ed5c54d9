package consent

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/fault"
)

// A local endpoint is the other network side of consent: a server that
// another client's file (.mcp.json, .vscode/mcp.json, .cursor/mcp.json,
// --config FILE) points at a loopback or private address is admitted by
// the config loader but held, and relavium dials that address only once
// the person said so — as a program a project file names is spawned only
// once they consented to it. A project file cannot opt itself in
// (relavium's own allow_local_endpoint is the author's word, in the
// person's config). The decision is a Binding with Local set: a digest
// over {kind:"local-endpoint", origin} kept in the same grant store,
// decided by the same Decider (DecideBindings), asked by the same Asker
// and refused headless by the same PendingError (E327 when only local
// endpoints are pending). The server's name is not part of the digest:
// what is approved is that this address is the person's own MCP server,
// as a stdio grant approves a program whatever it is called; another
// scheme, host or port is another digest and asks again.

// LocalKind is the kind a local endpoint's digest names.
const LocalKind = "local-endpoint"

// NewLocalEndpoint builds the local-endpoint decision of server, declared
// at source (file:line:col), whose url rawURL names a loopback or private
// address.
func NewLocalEndpoint(server, source, rawURL string) (*Binding, error) {
	origin, err := Origin(rawURL)
	if err != nil {
		return nil, err
	}
	digest, err := LocalDigest(origin)
	if err != nil {
		return nil, err
	}
	return &Binding{Server: server, Origin: origin, Digest: digest, Local: true, Source: source}, nil
}

// LocalDigest is the v1 digest of a local endpoint: "v1:" and the
// lowercase-hex SHA-256 of the canonical JSON of exactly
// {kind:"local-endpoint", origin}. It never equals a stdio digest or a
// secret binding's (the objects differ in their keys or kind).
func LocalDigest(origin string) (string, error) {
	b, err := canonjson.Marshal(map[string]any{"kind": LocalKind, "origin": origin})
	if err != nil {
		return "", &Error{ErrCode: CodeNotCanonical, Msg: err.Error(), Exit: fault.ExitUsage}
	}
	sum := sha256.Sum256(b)
	return DigestPrefix + hex.EncodeToString(sum[:]), nil
}

// AllowLocal sets the --allow-local NAME values of the invocation: the
// servers whose held local address the person approves for this run
// (checked by DecideBindings), and returns d.
func (d *Decider) AllowLocal(names []string) *Decider {
	d.allowLocal = append([]string(nil), names...)
	return d
}

// checkAllowLocal returns the digests --allow-local approves: each NAME
// must be a server whose local address is held (E328 otherwise, exit 2: a
// typo must not pass silently).
func (d *Decider) checkAllowLocal(bindings []*Binding) (map[string]bool, error) {
	allowed := map[string]bool{}
	var msgs []string
	for _, name := range d.allowLocal {
		i := slices.IndexFunc(bindings, func(b *Binding) bool { return b.Local && b.Server == name })
		if i < 0 {
			msgs = append(msgs, fmt.Sprintf("--allow-local %s names no server whose loopback or private address waits for your word (%s)", quoteArg(name), heldList(bindings)))
			continue
		}
		allowed[bindings[i].Digest+"\x00"+name] = true
	}
	if len(msgs) > 0 {
		return nil, &Error{ErrCode: CodeAllowLocalUnmatched, Msg: strings.Join(msgs, "; "), Exit: fault.ExitUsage}
	}
	return allowed, nil
}

func heldList(bindings []*Binding) string {
	var parts []string
	for _, b := range bindings {
		if !b.Local {
			continue
		}
		if len(parts) == 8 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, quoteArg(b.Server)+" at "+b.Origin)
	}
	if len(parts) == 0 {
		return "no server of another client's file points at a local address"
	}
	return "held: " + strings.Join(parts, ", ")
}

// WriteLocalDetails writes what a local-endpoint approval shows, one
// labelled line each: where the server is declared, the address it would
// dial, that it is a local address, and the digest.
func WriteLocalDetails(w io.Writer, b *Binding, indent string) {
	if b.Source != "" {
		fmt.Fprintf(w, "%sfrom     %s\n", indent, quoteArg(b.Source))
	}
	fmt.Fprintf(w, "%saddress  %s (%s)\n", indent, quoteArg(b.Origin), b.LocalKind())
	fmt.Fprintf(w, "%sdigest   %s\n", indent, b.Digest)
}

// LocalDeniedError is what a host reports for a server whose local
// address the person denied.
func LocalDeniedError(b *Binding) error {
	return &Error{ErrCode: CodeDenied, Msg: fmt.Sprintf("server %s: dialling the local address %s was denied (%s)", quoteArg(b.Server), b.Origin, b.Digest)}
}

// IsLocal reports whether g approves a local endpoint (a loopback or
// private address a client file names), not a program or a secret.
func (g *Grant) IsLocal() bool { return g.Secret == "" && g.Origin != "" && g.Command == "" }

// encodeLocal builds the grant line of a local endpoint: a grant line (a
// reader that knows only stdio grants folds it as a grant no program
// matches) with one additive field, origin, and no secret.
func encodeLocal(b *Binding, now time.Time) ([]byte, error) {
	if !ValidDigest(b.Digest) {
		return nil, CheckDigest("grant", b.Digest)
	}
	if len(b.Origin) > maxMetaPath {
		return nil, usage(CodeBadBinding, "an origin over %d bytes cannot be remembered", maxMetaPath)
	}
	return marshalLine(localLine{
		grantLine: grantLine{V: 1, Digest: b.Digest, Server: bound(b.Server, maxMetaPath), Command: "", Args: []string{}, EnvNames: []string{},
			Cwd: "", GrantedAt: now.UTC().Format(timeLayout)},
		Origin: b.Origin,
	})
}

type localLine struct {
	grantLine
	Origin string `json:"origin"`
}

// LocalKind says what a held local endpoint is, for the person deciding:
// an address (an IP literal or localhost) is a service on this machine or
// its network; a name (http://jenkins:8080) is one only a private network
// resolves, and the dial keeps it only if it resolves to a private address.
func (b *Binding) LocalKind() string {
	host := b.Origin
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if _, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return "a loopback or private address: a service on this machine or its network"
	}
	return "a name only a private network resolves: dialled only if it resolves to a private address"
}
