package consent

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/fault"
)

// A secret binding is the network side of consent: a secret from the
// person's stores (secrets.toml, RELAVIUM_SECRET_*) reaches a network
// server's origin only once the person bound that secret to that origin.
// A stdio server's env secrets are bound by the stdio consent of the
// program (its digest names every {{secrets.NAME}} it is given); a network
// server's header secrets are bound here, by a digest over (secret name,
// origin) kept in the same grant store, decided by the same Decider, asked
// by the same Asker and refused headless by the same PendingError. A
// project file can therefore not widen where a secret goes: another origin
// is another digest, and a header the grant did not name asks again.

// Binding is one secret that a network server's declared headers (or its
// url's path or query, the carrier "url") would carry to an origin. An
// environment value in a url's path or query is bound the same way, under
// env.VAR (package consent/urlref): one rule for every value that leaves for an
// origin.
//
// A Binding with Local set is a local endpoint instead (local.go): the
// server's url names a loopback or private address that another client's
// file declares; it has no Secret and no Headers, and its Digest is
// LocalDigest(Origin).
type Binding struct {
	Server  string   `json:"server"`            // the declared server whose headers carry it
	Secret  string   `json:"secret,omitempty"`  // the secret's name ({{secrets.NAME}})
	Origin  string   `json:"origin"`            // scheme://host:port the server's url names
	Headers []string `json:"headers,omitempty"` // the header names that carry it, sorted
	Digest  string   `json:"digest"`            // BindingDigest(Secret, Origin), or LocalDigest(Origin)
	// Local: a local endpoint (local.go), not a secret.
	Local bool `json:"local,omitempty"`
	// Source is where a local endpoint's or headers helper's server is
	// declared (file:line:col).
	Source string `json:"source,omitempty"`
	// Helper: a headers helper (helper.go), not a secret; its Digest is
	// HelperDigest(Helper, Origin).
	Helper *Helper `json:"helper,omitempty"`
}

// IsSecret reports whether b binds a secret (or a value of relavium's
// environment) to an origin: not a local endpoint, not a headers helper.
func (b *Binding) IsSecret() bool { return !b.Local && b.Helper == nil }

// NewBinding builds the binding of secret to the origin of rawURL for the
// headers of server.
func NewBinding(server, secret, rawURL string, headers []string) (*Binding, error) {
	origin, err := Origin(rawURL)
	if err != nil {
		return nil, err
	}
	digest, err := BindingDigest(secret, origin)
	if err != nil {
		return nil, err
	}
	hs := slices.Clone(headers)
	slices.Sort(hs)
	return &Binding{Server: server, Secret: secret, Origin: origin, Headers: slices.Compact(hs), Digest: digest}, nil
}

// Ref is the value the binding carries as written: {{secrets.NAME}}, or
// {{env.VAR}} for an environment value in a url's path or query (bound
// under env.VAR, EnvBindingPrefix).
func (b *Binding) Ref() string { return BindingRef(b.Secret) }

// BindingRefs is names as references, joined by ", ".
func BindingRefs(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = BindingRef(n)
	}
	return strings.Join(out, ", ")
}

// Kind says where the bound value comes from: "secret-ref" (a store),
// "relavium's environment" (env.VAR).
func (b *Binding) Kind() string {
	if strings.HasPrefix(b.Secret, EnvBindingPrefix) {
		return "relavium's environment"
	}
	return "secret-ref"
}

// BindingRef is the reference a binding name stands for: env.VAR is
// {{env.VAR}}, any other NAME {{secrets.NAME}}.
func BindingRef(name string) string {
	if v, ok := strings.CutPrefix(name, EnvBindingPrefix); ok {
		return "{{env." + v + "}}"
	}
	return "{{secrets." + name + "}}"
}

// Flag is NAME@ORIGIN, the value of --allow-secret and `consent grant`.
func (b *Binding) Flag() string { return b.Secret + "@" + b.Origin }

// AllowFlag is the flag that approves b for one run: --allow-secret
// NAME@ORIGIN, or --allow-local SERVER for a local endpoint.
func (b *Binding) AllowFlag() string {
	if b.Helper != nil {
		return "--allow-mcp-stdio " + b.Digest
	}
	if b.Local {
		return "--allow-local " + b.Server
	}
	return "--allow-secret " + b.Flag()
}

// BindingDigest is the v1 digest of a secret binding: "v1:" and the
// lowercase-hex SHA-256 of the canonical JSON of exactly
// {kind:"secret-binding", secret, origin}. It can never equal a stdio
// digest (the objects differ in their keys) and holds no value.
func BindingDigest(secret, origin string) (string, error) {
	b, err := canonjson.Marshal(map[string]any{"kind": "secret-binding", "secret": secret, "origin": origin})
	if err != nil {
		return "", &Error{ErrCode: CodeNotCanonical, Msg: err.Error(), Exit: fault.ExitUsage}
	}
	sum := sha256.Sum256(b)
	return DigestPrefix + hex.EncodeToString(sum[:]), nil
}

// defaultPorts are the ports an origin without one names.
var defaultPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443"}

// Origin is the origin of a network server's url as a binding names it:
// scheme://host:port, scheme and host lower-case, the port always written
// (https://api.example.com is https://api.example.com:443), an IPv6 host
// in brackets. Path, query and fragment are not part of it; a url with
// user info, no host or another scheme has no origin (E319).
func Origin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", usage(CodeBadBinding, "%s is not a url with an origin (scheme://host:port)", quoteArg(raw))
	}
	scheme := strings.ToLower(u.Scheme)
	def, known := defaultPorts[scheme]
	switch {
	case !known:
		return "", usage(CodeBadBinding, "%s is not an http, https, ws or wss origin", quoteArg(raw))
	case u.User != nil:
		return "", usage(CodeBadBinding, "%s holds user info; an origin is scheme://host:port", quoteArg(raw))
	case u.Hostname() == "":
		return "", usage(CodeBadBinding, "%s names no host", quoteArg(raw))
	}
	port := u.Port()
	if port == "" {
		port = def
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port), nil
}

// ParseAllowSecret reads NAME@ORIGIN (--allow-secret, `consent grant`):
// NAME is a secret name ([A-Za-z0-9_.-]+), ORIGIN a url whose origin is
// taken (a path is refused: the flag names where, not what). It returns the
// name and the normalised origin.
func ParseAllowSecret(s string) (secret, origin string, err error) {
	name, rest, ok := strings.Cut(s, "@")
	if _, isName := SecretRef("{{secrets." + name + "}}"); !ok || !isName {
		return "", "", usage(CodeBadBinding, "%s is not NAME@ORIGIN (a secret name, @, then scheme://host[:port])", quoteArg(s))
	}
	if u, perr := url.Parse(rest); perr == nil && (u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "") {
		return "", "", usage(CodeBadBinding, "%s: a binding names an origin (scheme://host[:port]), not a path or query", quoteArg(s))
	}
	origin, err = Origin(rest)
	if err != nil {
		return "", "", usage(CodeBadBinding, "%s is not NAME@ORIGIN: %s", quoteArg(s), err.(*Error).Msg)
	}
	return name, origin, nil
}

// ByTyping: the secret was typed in this session for this server (the
// workbench's masked prompt): the typing is the binding.
const ByTyping Why = "typed"

// BindingDecision is the verdict on one binding. Its states and reasons
// are a stdio Decision's: approved by a grant, by --allow-secret (the
// allow flag), once this session, or by typing; needing consent; denied.
type BindingDecision struct {
	Binding *Binding `json:"binding"`
	State   State    `json:"state"`
	Why     Why      `json:"why,omitempty"`
	Grant   *Grant   `json:"grant,omitempty"`
	// Added are the header names the binding's earlier grant did not name
	// (a project file that adds a header carrying the secret asks again).
	Added    []string `json:"added,omitempty"`
	StoreErr error    `json:"-"`
}

// Approved reports whether the secret may be sent.
func (d BindingDecision) Approved() bool { return d.State == Approved }

// covers reports whether g names every header of b; the rest are returned.
func covers(g *Grant, b *Binding) []string {
	var added []string
	for _, h := range b.Headers {
		if !slices.ContainsFunc(g.Headers, func(x string) bool { return strings.EqualFold(x, h) }) {
			added = append(added, h)
		}
	}
	return added
}

// WriteBindingDetails writes what a binding approval shows, one labelled
// line each, in the vocabulary of a stdio server's details: the secret by
// its reference (never its value), the origin it would go to, the header
// names that carry it, and the digest.
func WriteBindingDetails(w io.Writer, b *Binding, indent string) {
	fmt.Fprintf(w, "%ssecret   %s (%s; value not shown)\n", indent, b.Ref(), b.Kind())
	fmt.Fprintf(w, "%sorigin   %s\n", indent, quoteArg(b.Origin))
	names := make([]string, len(b.Headers))
	for i, h := range b.Headers {
		names[i] = quoteArg(h)
	}
	fmt.Fprintf(w, "%sheaders  %s\n", indent, strings.Join(names, ", "))
	fmt.Fprintf(w, "%sdigest   %s\n", indent, b.Digest)
}

// DecideBindings folds the store afresh and decides every binding, as
// Decide does for stdio servers. bindings must be EVERY binding the
// invocation's network servers declare: an --allow-secret value that is
// malformed (E319) or matches none of them (E324) is an error naming it,
// exit 2. Precedence: denied this session, then a live grant that names
// every header carrying the secret, then --allow-secret, then typed in
// this session for this origin, then approved once; otherwise the binding
// needs consent (Added: the headers an earlier grant of it did not name).
func (d *Decider) DecideBindings(bindings []*Binding) ([]BindingDecision, error) {
	allowed, err := d.checkAllowSecret(bindings)
	if err != nil {
		return nil, err
	}
	allowedLocal, err := d.checkAllowLocal(bindings)
	if err != nil {
		return nil, err
	}
	allowedHelper := map[string]bool{}
	for _, a := range d.allow {
		allowedHelper[a] = true // checked against every digest by Decide (checkAllow)
	}
	if len(bindings) == 0 {
		return nil, nil
	}
	grants, storeErr := d.store.Fold()
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]BindingDecision, 0, len(bindings))
	for _, b := range bindings {
		dec := BindingDecision{Binding: b, StoreErr: storeErr}
		g, granted := grants.Get(b.Digest)
		var added []string
		if granted {
			added = covers(g, b)
		}
		switch {
		case d.denied[b.Digest]:
			dec.State = Denied
		case granted && len(added) == 0:
			dec.State, dec.Why, dec.Grant = Approved, ByGrant, g
		case allowed[b.Digest] && b.IsSecret(), allowedLocal[b.Digest+"\x00"+b.Server] && b.Local, allowedHelper[b.Digest] && b.Helper != nil:
			dec.State, dec.Why = Approved, ByAllowFlag
		case d.typed[b.Digest]:
			dec.State, dec.Why = Approved, ByTyping
		case d.once[b.Digest]:
			dec.State, dec.Why = Approved, BySession
		default:
			dec.State, dec.Grant, dec.Added = NeedsConsent, g, added
		}
		out = append(out, dec)
	}
	return out, nil
}

func (d *Decider) checkAllowSecret(bindings []*Binding) (map[string]bool, error) {
	allowed := map[string]bool{}
	var msgs []string
	code := CodeAllowSecretUnmatched
	for _, a := range d.allowSecret {
		name, origin, err := ParseAllowSecret(a)
		if err != nil {
			msgs, code = append(msgs, err.(*Error).Msg), CodeBadBinding
			continue
		}
		digest, err := BindingDigest(name, origin)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(bindings, func(b *Binding) bool { return b.Digest == digest }) {
			msgs = append(msgs, fmt.Sprintf("--allow-secret %s matches no secret a declared server's headers send to %s (%s)", quoteArg(a), origin, bindingList(bindings)))
			continue
		}
		allowed[digest] = true
	}
	if len(msgs) > 0 {
		return nil, &Error{ErrCode: code, Msg: strings.Join(msgs, "; "), Exit: fault.ExitUsage}
	}
	return allowed, nil
}

func bindingList(bindings []*Binding) string {
	seen := map[string]bool{}
	var parts []string
	for _, b := range bindings {
		if seen[b.Digest] || !b.IsSecret() {
			continue
		}
		seen[b.Digest] = true
		if len(parts) == 8 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, b.Flag())
	}
	if len(parts) == 0 {
		return "no declared header carries a secret"
	}
	return "declared: " + strings.Join(parts, ", ")
}

// BindTyped binds secret to origin for this session: the person typed its
// value for a server at that origin (the workbench's masked prompt).
func (d *Decider) BindTyped(secret, origin string) error {
	digest, err := BindingDigest(secret, origin)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.typed[digest] = true
	delete(d.denied, digest)
	return nil
}

// RememberBinding writes a grant of b (the header names of an earlier
// grant of it kept, b's added) and approves it for the session; like
// Remember, nothing is written or approved on a store that fails closed.
func (d *Decider) RememberBinding(b *Binding) error {
	grants, err := d.store.Fold()
	if err != nil && b.Helper != nil {
		return StoreBlocks(err, fmt.Sprintf("the headers helper of server %s was not remembered: a grant has no effect while the grant store cannot be read (approve it once instead, or repair the store)", quoteArg(b.Server)))
	}
	if err != nil && b.Local {
		return StoreBlocks(err, fmt.Sprintf("the local address %s was not remembered: a grant has no effect while the grant store cannot be read (approve it once instead, or repair the store)", b.Origin))
	}
	if err != nil {
		return StoreBlocks(err, fmt.Sprintf("secret %s was not bound to %s: a grant has no effect while the grant store cannot be read (approve it once instead, or repair the store)", b.Secret, b.Origin))
	}
	headers := slices.Clone(b.Headers)
	if g, ok := grants.Get(b.Digest); ok {
		headers = append(headers, g.Headers...)
	}
	slices.Sort(headers)
	if err := d.store.GrantBinding(b, slices.Compact(headers), d.now()); err != nil {
		return err
	}
	d.ApproveOnce(b.Digest)
	return nil
}

// BindingDeniedError is what a host reports for a server whose secret
// binding (or local endpoint) the person denied.
func BindingDeniedError(b *Binding) error {
	if b.Helper != nil {
		return HelperDeniedError(b)
	}
	if b.Local {
		return LocalDeniedError(b)
	}
	return &Error{ErrCode: CodeDenied, Msg: fmt.Sprintf("server %s: sending %s to %s was denied (%s)", quoteArg(b.Server), b.Ref(), b.Origin, b.Digest)}
}

// URLCarrier is the carrier a binding names for a value in a url's path
// or query (where a header's binding names its header).
const URLCarrier = "url"

// EnvBindingPrefix begins the binding name of an environment value in a
// url's path or query: {{env.API_KEY}} is bound as env.API_KEY@ORIGIN.
const EnvBindingPrefix = "env."
