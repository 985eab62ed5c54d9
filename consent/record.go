package consent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"
)

// Write-side bounds on the comparison metadata of a grant line. The metadata
// is for the prompt's diff only (never an input to the digest), so an
// over-long value is cut at a UTF-8 boundary and marked with a trailing "…";
// the diff treats a marked value as a prefix.
const (
	maxMetaPath     = 4096 // command, cwd
	maxMetaArg      = 1024 // each argument
	maxMetaArgs     = 64   // number of arguments kept
	maxMetaEnvName  = 256  // each env name
	maxMetaEnvNames = 64   // number of env names kept
	maxMetaSandbox  = 512  // words of a sandbox policy kept (each at most maxMetaPath)
	truncMark       = "…"
)

// Read-side bound: a line longer than this fails the fold closed.
const maxLineBytes = 1 << 20

// timeLayout is ECMAScript Date.prototype.toISOString: UTC, milliseconds, Z.
const timeLayout = "2006-01-02T15:04:05.000Z"

// grantLine and revokeLine are the two line shapes of the store.
// Two additive extensions, ignored by a reader of the documented shape:
// server, the declared name (which earlier grant the diff compares with:
// Grants.Closest), and envKinds (name → kind, never a value) so the diff can
// report a changed kind.
type grantLine struct {
	V         int               `json:"v"`
	Digest    string            `json:"digest"`
	Server    string            `json:"server,omitempty"`
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	EnvNames  []string          `json:"envNames"`
	Cwd       string            `json:"cwd"`
	GrantedAt string            `json:"grantedAt"`
	EnvKinds  map[string]string `json:"envKinds,omitempty"`
	// Sandbox is the sandbox policy granted (sandbox.Policy.Words), an
	// additive field: the next diff shows what loosened, and a tighter
	// policy of the same program keeps the grant (Grants.Covering).
	Sandbox []string `json:"sandbox,omitempty"`
}

type revokeLine struct {
	V         int    `json:"v"`
	Revokes   string `json:"revokes"`
	RevokedAt string `json:"revokedAt"`
}

// encodeGrant builds the bounded grant line (with its newline) for r.
func encodeGrant(r *Resolved, now time.Time) ([]byte, error) {
	if !ValidDigest(r.Digest) {
		return nil, CheckDigest("grant", r.Digest)
	}
	g := grantLine{
		V:         1,
		Digest:    r.Digest,
		Server:    bound(r.Name, maxMetaPath),
		Command:   bound(r.Command, maxMetaPath),
		Args:      boundList(r.Args, maxMetaArg, maxMetaArgs),
		EnvNames:  boundList(r.EnvNames(), maxMetaEnvName, maxMetaEnvNames),
		Cwd:       bound(r.Cwd, maxMetaPath),
		GrantedAt: now.UTC().Format(timeLayout),
	}
	if r.Sandbox != nil {
		if w := r.Sandbox.Words(); len(w) <= maxMetaSandbox && !slices.ContainsFunc(w, func(s string) bool { return len(s) > maxMetaPath }) {
			g.Sandbox = w // a policy past the bounds is not kept: a tighter one then asks again
		}
	}
	if len(r.Env) > 0 {
		g.EnvKinds = make(map[string]string, len(g.EnvNames))
		for i, e := range r.Env {
			if i >= maxMetaEnvNames {
				break
			}
			g.EnvKinds[bound(e.Name, maxMetaEnvName)] = string(e.Kind)
		}
	}
	return marshalLine(g)
}

// bindingLine is a secret binding's grant line: a grant line (so a reader
// that knows only stdio grants folds it as a grant no program matches)
// with three additive fields, secret, origin and headers — names, never a
// value.
type bindingLine struct {
	grantLine
	Secret  string   `json:"secret"`
	Origin  string   `json:"origin"`
	Headers []string `json:"headers"`
}

// maxMetaHeaders bounds the header names a binding's grant keeps.
const maxMetaHeaders = 64

// encodeBinding builds the bounded grant line for b approved for headers.
func encodeBinding(b *Binding, headers []string, now time.Time) ([]byte, error) {
	if !ValidDigest(b.Digest) {
		return nil, CheckDigest("grant", b.Digest)
	}
	if len(b.Secret) > maxMetaEnvName || len(b.Origin) > maxMetaPath {
		return nil, usage(CodeBadBinding, "a secret name over %d bytes or an origin over %d bytes cannot be remembered", maxMetaEnvName, maxMetaPath)
	}
	return marshalLine(bindingLine{
		grantLine: grantLine{V: 1, Digest: b.Digest, Server: bound(b.Server, maxMetaPath), Command: "", Args: []string{}, EnvNames: []string{},
			Cwd: "", GrantedAt: now.UTC().Format(timeLayout)},
		Secret: b.Secret, Origin: b.Origin, Headers: boundList(headers, maxMetaEnvName, maxMetaHeaders),
	})
}

func encodeRevoke(digest string, now time.Time) ([]byte, error) {
	if !ValidDigest(digest) {
		return nil, CheckDigest("revoke", digest)
	}
	return marshalLine(revokeLine{V: 1, Revokes: digest, RevokedAt: now.UTC().Format(timeLayout)})
}

func marshalLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // Encode appends the '\n'
		return nil, &Error{ErrCode: CodeStoreIO, Msg: "cannot encode a grant store line", Cause: err}
	}
	return buf.Bytes(), nil
}

// bound cuts s to at most max bytes on a rune boundary, marking a cut.
func bound(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit - len(truncMark)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + truncMark
}

func boundList(list []string, each, count int) []string {
	out := make([]string, 0, min(len(list), count))
	for i, s := range list {
		if i >= count {
			break
		}
		out = append(out, bound(s, each))
	}
	return out
}

// metaEqual compares a stored metadata value with the current one, treating
// a stored value that bound cut at limit as a prefix of the current one.
func metaEqual(stored, current string, limit int) bool {
	if stored == current {
		return true
	}
	if len(current) <= limit || !strings.HasSuffix(stored, truncMark) {
		return false
	}
	return bound(current, limit) == stored
}

// record is one parsed line: a grant or a revocation.
type record struct {
	grant   *Grant
	revokes string
}

// parseLine parses one non-blank line strictly. The returned string is the
// reason a line is refused; any refusal fails the whole fold closed.
// a is the decoder's scratch and nothing returned points into it; boxes is
// where a grant is allocated (both nil: one line on its own). A grant's
// strings are substrings of line.
func parseLine(line string, lineNo int, a *arena, boxes *boxArena) (record, string) {
	if a == nil {
		a = &arena{}
	}
	if boxes == nil {
		boxes = &boxArena{}
	}
	if len(line) == 0 || line[0] != '{' {
		return record{}, "not a JSON object"
	}
	var w wireLine
	if !fastDecode(line, &w, a) {
		var reason string
		if w, reason = slowDecode(line); reason != "" {
			return record{}, reason
		}
	}
	return w.record(lineNo, boxes)
}

// record applies the record rules to a decoded line.
func (w *wireLine) record(lineNo int, boxes *boxArena) (record, string) {
	if w.has&hasV == 0 {
		return record{}, `no "v" field`
	}
	if w.V != 1 {
		return record{}, fmt.Sprintf(`unsupported record version "v":%s (this relavium reads "v":1)`, w.VText)
	}
	switch {
	case w.has&hasDigest != 0 && w.has&hasRevokes != 0:
		return record{}, `both "digest" and "revokes": neither a grant nor a revocation`
	case w.has&hasRevokes != 0:
		if !wellFormedDigest(w.Revokes) {
			return record{}, fmt.Sprintf(`"revokes" %q is not a digest`, trimText(w.Revokes))
		}
		if w.has&hasRevokedAt == 0 {
			return record{}, `revocation without "revokedAt"`
		}
		if _, err := parseTime(w.RevokedAt); err != nil {
			return record{}, fmt.Sprintf(`"revokedAt" %q is not an ISO-8601 time`, trimText(w.RevokedAt))
		}
		return record{revokes: w.Revokes}, ""
	case w.has&hasDigest != 0:
		if !wellFormedDigest(w.Digest) {
			return record{}, fmt.Sprintf(`"digest" %q is not a digest`, trimText(w.Digest))
		}
		if w.has&hasSecret != 0 {
			return w.binding(lineNo, boxes)
		}
		if w.has&hasOrigin != 0 {
			return w.local(lineNo, boxes)
		}
		for _, f := range []struct {
			name string
			bit  int
		}{{"command", hasCommand}, {"args", hasArgs}, {"envNames", hasEnvNames}, {"cwd", hasCwd}, {"grantedAt", hasGrantedAt}} {
			if w.has&f.bit == 0 {
				return record{}, fmt.Sprintf("grant without %q", f.name)
			}
		}
		at, err := parseTime(w.GrantedAt)
		if err != nil {
			return record{}, fmt.Sprintf(`"grantedAt" %q is not an ISO-8601 time`, trimText(w.GrantedAt))
		}
		// The decoder's slices may live in its per-line scratch: the grant
		// gets its own copies.
		g := boxes.newGrant(w.Args, w.EnvNames, nil, w.EnvKinds)
		g.Digest, g.Server, g.Command, g.Cwd, g.GrantedAt, g.Line = w.Digest, w.Server, w.Command, w.Cwd, at, lineNo
		if len(w.Sandbox) > 0 {
			g.Sandbox = slices.Clone(w.Sandbox)
			g.own += len(w.Sandbox) * int(unsafe.Sizeof(""))
		}
		return record{grant: g}, ""
	}
	return record{}, `neither "digest" (a grant) nor "revokes" (a revocation)`
}

// binding applies the record rules to a secret binding's grant: a secret
// name, an origin and a grant time are required (the stdio fields it also
// carries, empty, are for readers that know only stdio grants).
func (w *wireLine) binding(lineNo int, boxes *boxArena) (record, string) {
	if w.Secret == "" {
		return record{}, `binding with an empty "secret"`
	}
	for _, f := range []struct {
		name string
		bit  int
	}{{"origin", hasOrigin}, {"grantedAt", hasGrantedAt}} {
		if w.has&f.bit == 0 {
			return record{}, fmt.Sprintf("binding without %q", f.name)
		}
	}
	at, err := parseTime(w.GrantedAt)
	if err != nil {
		return record{}, fmt.Sprintf(`"grantedAt" %q is not an ISO-8601 time`, trimText(w.GrantedAt))
	}
	g := boxes.newGrant(nil, nil, w.Headers, nil)
	g.Digest, g.Server, g.GrantedAt, g.Line = w.Digest, w.Server, at, lineNo
	g.Secret, g.Origin = w.Secret, w.Origin
	return record{grant: g}, ""
}

// local applies the record rules to a local endpoint's grant (local.go):
// an origin and a grant time are required, and no secret.
func (w *wireLine) local(lineNo int, boxes *boxArena) (record, string) {
	if w.Origin == "" {
		return record{}, `local endpoint grant with an empty "origin"`
	}
	if w.has&hasGrantedAt == 0 {
		return record{}, `local endpoint grant without "grantedAt"`
	}
	at, err := parseTime(w.GrantedAt)
	if err != nil {
		return record{}, fmt.Sprintf(`"grantedAt" %q is not an ISO-8601 time`, trimText(w.GrantedAt))
	}
	// A headers helper's grant (helper.go) also keeps what runs: the
	// shell, -c and the line, and the directory.
	g := boxes.newGrant(w.Args, nil, nil, nil)
	g.Digest, g.Server, g.GrantedAt, g.Line = w.Digest, w.Server, at, lineNo
	g.Origin, g.Command, g.Cwd = w.Origin, w.Command, w.Cwd
	return record{grant: g}, ""
}

// wellFormedDigest accepts any version's digest ("v<N>:<hex>"): a grant or
// revocation of another version is folded like any other line and simply
// never matches a v1 fingerprint.
func wellFormedDigest(s string) bool {
	i := 1
	if len(s) < 4 || s[0] != 'v' {
		return false
	}
	for i < len(s) && s[i]-'0' < 10 {
		i++
	}
	if i == 1 || i >= len(s)-1 || s[i] != ':' {
		return false
	}
	for j := i + 1; j < len(s); j++ {
		if c := s[j]; c-'0' >= 10 && c-'a' >= 6 {
			return false
		}
	}
	return true
}

func parseTime(s string) (time.Time, error) {
	return time.Parse(time.RFC3339Nano, s)
}

func trimText(s string) string {
	if len(s) > 80 {
		return bound(s, 80)
	}
	return s
}

func trimJSONError(err error) string {
	s := err.Error()
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}
