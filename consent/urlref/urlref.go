package urlref

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/consent"
)

// Ref is one reference of a url as written.
type Ref struct {
	consent.Span
	// Origin is set for a reference in the scheme://host:port.
	Origin bool
	// Carried is set for a reference whose value is sent to the origin
	// (the path, query or fragment, or part of a host name): it is bound
	// there before it is read.
	Carried bool
	// TypedHost is set for a {{secrets.NAME}} that is the whole host: a
	// value the person types (a VS Code file's ${input:id}), which config
	// admits only for a typed input and the session reads, and the guard
	// judges, before anything is dialled.
	TypedHost bool
}

// BindingName is the name a reference in the path or query is bound
// under: the secret's name, or env.VAR for an environment value.
func (r Ref) BindingName() string {
	if r.Secret != "" {
		return r.Secret
	}
	return consent.EnvBindingPrefix + r.Name
}

// Text is the reference as written ({{env.VAR}}, {{secrets.NAME}}).
func (r Ref) Text() string {
	if r.Secret != "" {
		return "{{secrets." + r.Secret + "}}"
	}
	return "{{env." + r.Name + "}}"
}

// Read reads the references of a url as written (by RefsIn, the one
// reading of a reference) and says where each sits. It refuses, with a
// reason a person can act on: a malformed {{…}}, a reference that is only
// part of the scheme, the host or the port, one in user info and a secret
// in the origin. A url without references has none and no error.
func Read(text string) ([]Ref, error) {
	if !strings.Contains(text, "{{") && !strings.Contains(text, "}}") {
		return nil, nil
	}
	spans, ok := consent.RefsIn(text)
	if !ok || !secretsOnlyAsRefs(text, spans) {
		return nil, fmt.Errorf("a {{…}} in a url must read {{env.VAR}}, {{env.VAR:-default}} or {{secrets.NAME}}, whole")
	}
	for _, sp := range spans {
		if strings.HasPrefix(sp.Secret, consent.EnvBindingPrefix) {
			return nil, fmt.Errorf("{{secrets.%s}}: a secret's name does not begin env. (a binding named env.VAR is relavium's environment variable VAR)", sp.Secret)
		}
	}
	// The skeleton is the text with each reference one NUL byte (no url
	// holds one), so the origin is found in what the file wrote itself.
	var sk strings.Builder
	at := make([]int, 0, len(spans)) // skeleton index of each span
	last := 0
	for _, sp := range spans {
		sk.WriteString(text[last:sp.Start])
		at = append(at, sk.Len())
		sk.WriteByte(0)
		last = sp.End
	}
	sk.WriteString(text[last:])
	skel := sk.String()
	originEnd, whole, inHost, wholeHost, err := urlOrigin(skel)
	if err != nil {
		return nil, err
	}
	refs := make([]Ref, len(spans))
	for i, sp := range spans {
		r := Ref{Span: sp, Origin: at[i] < originEnd}
		r.Carried = !r.Origin || inHost[at[i]] && !whole[at[i]]
		refs[i] = r
		if !r.Origin {
			continue
		}
		switch {
		case !whole[at[i]] && !inHost[at[i]]:
			return nil, fmt.Errorf("%s is only part of the url's scheme or port: a reference there must be the whole scheme://host[:port], the whole host or the whole port", r.Text())
		case r.Secret != "" && !(wholeHost[at[i]] && !r.Carried):
			return nil, fmt.Errorf("%s is in the url's origin: a secret never chooses where to go (a secret may ride in the path or query, bound to the origin)", r.Text())
		}
		refs[i].TypedHost = r.Secret != ""
	}
	return refs, nil
}

// secretsOnlyAsRefs: every "{{" of text opens one of spans (RefsIn reads
// only {{env.…}} and {{secrets.…}}; any other {{…}} would be dialled as
// written).
func secretsOnlyAsRefs(text string, spans []consent.Span) bool {
	last := 0
	for _, sp := range spans {
		if strings.Contains(text[last:sp.Start], "{{") || strings.Contains(text[last:sp.Start], "}}") {
			return false
		}
		last = sp.End
	}
	return !strings.Contains(text[last:], "{{") && !strings.Contains(text[last:], "}}")
}

// urlOrigin finds where the origin of a url skeleton ends (its path, query
// or fragment begins) and which reference positions make up a whole part
// of it.
func urlOrigin(skel string) (end int, whole, inHost, wholeHost map[int]bool, err error) {
	whole, inHost, wholeHost = map[int]bool{}, map[int]bool{}, map[int]bool{}
	pathStart := func(from int) int {
		if i := strings.IndexAny(skel[from:], "/?#"); i >= 0 {
			return from + i
		}
		return len(skel)
	}
	if strings.HasPrefix(skel, "\x00") {
		// A reference first: it is the whole scheme://host[:port] when the
		// path (or nothing) follows it.
		end = pathStart(1)
		if end != 1 {
			return 0, nil, nil, nil, fmt.Errorf("a reference that begins the url must be the whole scheme://host[:port] (followed by /, ? or # or nothing), as in {{env.MCP_URL}}/mcp")
		}
		whole[0] = true
		return end, whole, inHost, wholeHost, nil
	}
	sep := strings.Index(skel, "://")
	if sep < 0 {
		return 0, nil, nil, nil, fmt.Errorf("the url does not begin with scheme:// (or with a reference that is the whole scheme://host[:port])")
	}
	if strings.Contains(skel[:sep], "\x00") {
		return sep, nil, nil, nil, fmt.Errorf("a reference is part of the url's scheme: write the scheme, or make the reference the whole scheme://host[:port]")
	}
	start := sep + 3
	end = pathStart(start)
	auth := skel[start:end]
	if i := strings.LastIndexByte(auth, '@'); i >= 0 && strings.Contains(auth[:i+1], "\x00") {
		return end, nil, nil, nil, fmt.Errorf("a reference is in the url's user info: credentials never travel in an MCP url (send a secret in a header, or in the path or query bound to the origin)")
	}
	host, port := auth, ""
	if i := strings.LastIndexByte(auth, ':'); i >= 0 && !strings.Contains(auth[i:], "]") {
		host, port = auth[:i], auth[i+1:]
	}
	if host == "\x00" {
		whole[start], wholeHost[start] = true, true
	}
	if !strings.HasPrefix(host, "[") { // a name, not an IPv6 literal
		for i := 0; i < len(host); i++ {
			if host[i] == 0 {
				inHost[start+i] = true
			}
		}
	}
	if port == "\x00" {
		whole[end-1] = true
	}
	return end, whole, inHost, wholeHost, nil
}

// Expand is text with each of refs replaced by value's answer, in one
// pass (a value is never read again for references). A reference value
// has no answer for is left out of the result and returned in missing,
// so every one is named at once.
func Expand(text string, refs []Ref, value func(Ref) (string, bool)) (out string, missing []Ref) {
	var b strings.Builder
	last := 0
	for _, r := range refs {
		b.WriteString(text[last:r.Start])
		last = r.End
		v, ok := value(r)
		if !ok {
			missing = append(missing, r)
			continue
		}
		b.WriteString(v)
	}
	b.WriteString(text[last:])
	return b.String(), missing
}

// EnvValue is what an {{env.VAR}} of a url stands for, read by lookup
// (nil: every variable unset), as an argument's is: the variable's value,
// or the default when it is unset or empty. fromEnv says the value came
// from the environment (a default is the file's own text, shown as
// written); ok is false when VAR is unset and there is no default.
func (r Ref) EnvValue(lookup func(string) (string, bool)) (v string, fromEnv, ok bool) {
	if lookup != nil {
		v, ok = lookup(r.Name)
	}
	switch {
	case (!ok || v == "") && r.HasDefault:
		return r.Def, false, true
	case !ok:
		return "", false, false
	}
	return v, true, true
}
