package machine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/nesting"
)

// Machine-request limits (docs/machine-invoker.md "The machine request").
const (
	MaxRequestBytes = 1 << 20   // one request document
	MaxElementBytes = 32 << 10  // one argv element
	MaxArgvBytes    = 128 << 10 // the whole argv
)

// Redacted replaces every secret value in request ids, audit lines and
// stderr tails.
const Redacted = "[REDACTED]"

// ValueKind is the JSON type of one flag value in a request.
type ValueKind int

// Flag value kinds.
const (
	KindBool ValueKind = iota + 1
	KindNumber
	KindString
	KindList
)

// FlagValue is one flag value of a request, exactly as the client sent it.
type FlagValue struct {
	Kind ValueKind
	Bool bool
	Num  json.Number
	Str  string
	List []string
}

// MarshalJSON renders the value as the client sent it.
func (v FlagValue) MarshalJSON() ([]byte, error) {
	switch v.Kind {
	case KindBool:
		return json.Marshal(v.Bool)
	case KindNumber:
		if n, ok := canonNumber(v.Num); ok {
			return []byte(n), nil
		}
		return json.Marshal(string(v.Num))
	case KindString:
		return marshalNoEscape(v.Str)
	case KindList:
		if v.List == nil {
			return []byte("[]"), nil
		}
		return marshalNoEscape(v.List)
	}
	return []byte("null"), nil
}

// Request is a machine request: every member optional, names matched
// exactly, no member twice, nothing unknown.
type Request struct {
	Args    []string
	Flags   map[string]FlagValue
	Argv    []string
	Confirm string
}

// FlagNames returns the request's flag names, sorted.
func (r *Request) FlagNames() []string {
	names := make([]string, 0, len(r.Flags))
	for n := range r.Flags {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Clone returns a deep copy.
func (r *Request) Clone() *Request {
	out := &Request{Confirm: r.Confirm, Args: append([]string(nil), r.Args...), Argv: append([]string(nil), r.Argv...)}
	if r.Flags != nil {
		out.Flags = make(map[string]FlagValue, len(r.Flags))
		for k, v := range r.Flags {
			v.List = append([]string(nil), v.List...)
			out.Flags[k] = v
		}
	}
	return out
}

func badRequest(format string, a ...any) *cli.Error {
	return &cli.Error{ErrCode: CodeInvalidRequest, Msg: fmt.Sprintf(format, a...), Exit: cli.ExitUsage}
}

// requestNesting refuses a client's JSON nested deeper than
// nesting.JSONDepth before the decoder reads it.
func requestNesting(what string, doc []byte) error {
	if _, over := nesting.JSON(doc, nesting.Limits{MaxDepth: nesting.JSONDepth}); over != nil {
		return badRequest("%s is refused before it is parsed: %s (byte %d)", what, over.Describe(), over.Offset)
	}
	return nil
}

// quoteName renders a client-supplied name for a message: quoted and bounded.
// Values are never rendered at all.
func quoteName(s string) string {
	if r := []rune(s); len(r) > 48 {
		s = string(r[:48]) + "..."
	}
	return strconv.Quote(s)
}

// ParseRequest decodes one request document with a token walk, because
// encoding/json neither rejects repeated members nor matches names exactly.
// Empty input and `null` are the empty request.
func ParseRequest(data []byte) (*Request, error) {
	if len(data) > MaxRequestBytes {
		return nil, badRequest("the request is larger than %d bytes", MaxRequestBytes)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return &Request{}, nil
	}
	if err := requestNesting("the request", trimmed); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if err := expectDelim(dec, '{', "the request must be a JSON object"); err != nil {
		return nil, err
	}
	r := &Request{}
	seen := map[string]bool{}
	for dec.More() {
		key, err := memberName(dec, "request")
		if err != nil {
			return nil, err
		}
		if seen[key] {
			return nil, badRequest("member %s appears twice", quoteName(key))
		}
		seen[key] = true
		switch key {
		case "args":
			if r.Args, err = stringArray(dec, "args"); err != nil {
				return nil, err
			}
		case "argv":
			if r.Argv, err = stringArray(dec, "argv"); err != nil {
				return nil, err
			}
		case "flags":
			if r.Flags, err = flagObject(dec); err != nil {
				return nil, err
			}
		case "confirm":
			tok, err := dec.Token()
			s, ok := tok.(string)
			if err != nil || !ok || !isConfirmValue(s) {
				return nil, badRequest("confirm must be 64 lowercase hex characters")
			}
			r.Confirm = s
		default:
			return nil, badRequest("unknown member %s (members: args, flags, argv, confirm)", quoteName(key))
		}
	}
	if err := expectDelim(dec, '}', "the request object is not closed"); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, badRequest("the request has data after its JSON object")
	}
	return r, nil
}

func isConfirmValue(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func expectDelim(dec *json.Decoder, d json.Delim, msg string) error {
	tok, err := dec.Token()
	if err != nil {
		return badRequest("%s (the JSON does not parse)", msg)
	}
	if got, ok := tok.(json.Delim); !ok || got != d {
		return badRequest("%s", msg)
	}
	return nil
}

func memberName(dec *json.Decoder, where string) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", badRequest("the %s does not parse as JSON", where)
	}
	key, ok := tok.(string)
	if !ok {
		return "", badRequest("the %s has a member without a name", where)
	}
	return key, nil
}

func stringArray(dec *json.Decoder, member string) ([]string, error) {
	if err := expectDelim(dec, '[', member+" must be an array of strings"); err != nil {
		return nil, err
	}
	out := []string{}
	for dec.More() {
		tok, err := dec.Token()
		s, ok := tok.(string)
		if err != nil || !ok {
			return nil, badRequest("%s must be an array of strings", member)
		}
		out = append(out, s)
	}
	if err := expectDelim(dec, ']', member+" must be an array of strings"); err != nil {
		return nil, err
	}
	return out, nil
}

func flagObject(dec *json.Decoder) (map[string]FlagValue, error) {
	if err := expectDelim(dec, '{', "flags must be an object"); err != nil {
		return nil, err
	}
	out := map[string]FlagValue{}
	for dec.More() {
		name, err := memberName(dec, "flags object")
		if err != nil {
			return nil, err
		}
		if _, dup := out[name]; dup {
			return nil, badRequest("flag %s appears twice", quoteName(name))
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, badRequest("flag %s does not parse as JSON", quoteName(name))
		}
		var v FlagValue
		switch x := tok.(type) {
		case bool:
			v = FlagValue{Kind: KindBool, Bool: x}
		case json.Number:
			v = FlagValue{Kind: KindNumber, Num: x}
		case string:
			v = FlagValue{Kind: KindString, Str: x}
		case json.Delim:
			if x != '[' {
				return nil, badRequest("flag %s must be a boolean, number, string or array of strings", quoteName(name))
			}
			v = FlagValue{Kind: KindList, List: []string{}}
			for dec.More() {
				t, err := dec.Token()
				s, ok := t.(string)
				if err != nil || !ok {
					return nil, badRequest("flag %s must be an array of strings", quoteName(name))
				}
				v.List = append(v.List, s)
			}
			if err := expectDelim(dec, ']', "flag "+quoteName(name)+" must be an array of strings"); err != nil {
				return nil, err
			}
		default: // null
			return nil, badRequest("flag %s must be a boolean, number, string or array of strings", quoteName(name))
		}
		out[name] = v
	}
	if err := expectDelim(dec, '}', "flags must be an object"); err != nil {
		return nil, err
	}
	return out, nil
}

// canonNumber renders a JSON number in one form: whole values as integers
// (3.0 -> 3), others in Go's shortest float form.
func canonNumber(n json.Number) (string, bool) {
	s := string(n)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return strconv.FormatInt(i, 10), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10), true
	}
	return strconv.FormatFloat(f, 'g', -1, 64), true
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// secretArg reports whether positional i must be redacted: a secret declared
// arg, or (failing closed) a positional past the declared ones. A variadic
// arg covers every remaining positional.
func secretArg(cmd *cli.Command, i int) bool {
	if cmd == nil {
		return true
	}
	for j, a := range cmd.Args {
		if j == i || (a.Variadic && i >= j) {
			return a.Secret
		}
	}
	return true
}

// secretFlag reports whether a flag's value must be redacted: a secret
// declared flag, or (failing closed) a flag the command does not declare.
func secretFlag(cmd *cli.Command, name string) bool {
	if cmd == nil {
		return true
	}
	f := cmd.Flag(name)
	return f == nil || f.Secret
}

// RedactedRequest is the request as logs may show it.
type RedactedRequest struct {
	Args  []string       `json:"args"`
	Argv  []string       `json:"argv"`
	Flags map[string]any `json:"flags"`
}

// Redact returns r with every secret arg and flag value and every free-form
// argv item replaced by Redacted. looksSecret additionally redacts flags
// whose name looks secret (the audit log's rule); the request id uses the
// registry marks only.
func (r *Request) Redact(cmd *cli.Command, looksSecret bool) RedactedRequest {
	out := RedactedRequest{Args: []string{}, Argv: []string{}, Flags: map[string]any{}}
	for i, a := range r.Args {
		if secretArg(cmd, i) {
			a = Redacted
		}
		out.Args = append(out.Args, a)
	}
	for range r.Argv {
		out.Argv = append(out.Argv, Redacted)
	}
	for name, v := range r.Flags {
		if secretFlag(cmd, name) || (looksSecret && IsSecretKey(name)) {
			out.Flags[name] = Redacted
			continue
		}
		out.Flags[name] = v
	}
	return out
}

// SecretValues lists every value of r that must never leave the process
// (secret args and flags, free-form argv items), longest first, for
// scrubbing stderr tails.
func (r *Request) SecretValues(cmd *cli.Command) []string {
	var vals []string
	add := func(s string) {
		if s != "" && s != Redacted {
			vals = append(vals, s)
		}
	}
	for i, a := range r.Args {
		if secretArg(cmd, i) {
			add(a)
		}
	}
	for _, a := range r.Argv {
		add(a)
	}
	for name, v := range r.Flags {
		if !secretFlag(cmd, name) && !IsSecretKey(name) {
			continue
		}
		switch v.Kind {
		case KindString:
			add(v.Str)
		case KindList:
			for _, s := range v.List {
				add(s)
			}
		case KindNumber:
			add(string(v.Num))
		}
	}
	sort.SliceStable(vals, func(i, j int) bool { return len(vals[i]) > len(vals[j]) })
	return vals
}

// secretKeyWords are the name fragments that mark a value secret whatever the
// registry says (the audit log's secret-name rule).
var secretKeyWords = [...]string{"SECRET", "PASS", "KEY", "TOKEN", "CREDENTIAL", "WEBHOOK", "PRIVATE", "DSN", "SALT"}

// IsSecretKey reports whether a name looks like it holds a secret.
func IsSecretKey(name string) bool {
	u := strings.ToUpper(name)
	for _, w := range secretKeyWords {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

// CanonicalRequest is the document the request id hashes:
// {"args":[…],"argv":[…],"command":"<path>","flags":{…}} with keys sorted, no
// whitespace, confirm left out, secrets replaced.
func CanonicalRequest(cmdPath string, cmd *cli.Command, r *Request) []byte {
	red := r.Redact(cmd, false)
	flags := make(map[string]json.RawMessage, len(red.Flags))
	for name, v := range red.Flags {
		b, err := marshalNoEscape(v)
		if err != nil {
			b = []byte(`"` + Redacted + `"`)
		}
		flags[name] = b
	}
	doc := struct {
		Args    []string                   `json:"args"`
		Argv    []string                   `json:"argv"`
		Command string                     `json:"command"`
		Flags   map[string]json.RawMessage `json:"flags"`
	}{red.Args, red.Argv, cmdPath, flags}
	b, err := marshalNoEscape(doc)
	if err != nil { // unreachable: every member is a string or raw JSON we built
		return []byte(fmt.Sprintf("unencodable:%q", cmdPath))
	}
	return b
}

// RequestID is the lowercase hex SHA-256 of CanonicalRequest. It never
// derives from a secret and is never a confirmation: anyone can compute it.
func RequestID(cmdPath string, cmd *cli.Command, r *Request) string {
	sum := sha256.Sum256(CanonicalRequest(cmdPath, cmd, r))
	return hex.EncodeToString(sum[:])
}

// fullDigest binds a nonce to the full, unredacted request (confirm left
// out): a different secret value is a different request.
func fullDigest(cmdPath string, r *Request) [32]byte {
	flags := make(map[string]FlagValue, len(r.Flags))
	for k, v := range r.Flags {
		flags[k] = v
	}
	doc := struct {
		Args    []string             `json:"args"`
		Argv    []string             `json:"argv"`
		Command string               `json:"command"`
		Flags   map[string]FlagValue `json:"flags"`
	}{append([]string{}, r.Args...), append([]string{}, r.Argv...), cmdPath, flags}
	b, err := marshalNoEscape(doc)
	if err != nil {
		b = []byte(fmt.Sprintf("%q%q%q", cmdPath, r.Args, r.Argv))
	}
	return sha256.Sum256(b)
}
