package consent

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/relavium/relavium/nesting"
)

// Presence bits of a wireLine's fields.
const (
	hasV = 1 << iota
	hasDigest
	hasCommand
	hasCwd
	hasGrantedAt
	hasRevokes
	hasRevokedAt
	hasArgs
	hasEnvNames
	hasEnvKinds
	hasServer
	hasSandbox
	hasSecret
	hasOrigin
	hasHeaders
)

// wireLine is one store line decoded, before the record rules apply; has
// tells a missing field from an empty one.
type wireLine struct {
	has       int
	V         float64
	VText     string // "v" as written, for messages
	Digest    string
	Server    string
	Command   string
	Cwd       string
	GrantedAt string
	Revokes   string
	RevokedAt string
	Args      []string
	EnvNames  []string
	EnvKinds  []EnvKindOf
	Sandbox   []string
	Secret    string   // a secret binding's grant (binding.go)
	Origin    string   // …
	Headers   []string // …
}

// slowDecode is the reference decoder: encoding/json decides what is valid
// JSON, keys match exactly (as a JavaScript reader sees them, not
// encoding/json's case-insensitive field match), a repeated key keeps its last
// value, and unknown keys are ignored. It returns the reason a line is not
// valid, or "".
func slowDecode(line string) (wireLine, string) {
	var w wireLine
	reason := w.slowFill(line)
	return w, reason
}

func (w *wireLine) slowFill(line string) string {
	// Measured before encoding/json builds anything from the line.
	if _, over := nesting.JSON([]byte(line), nesting.Limits{MaxDepth: nesting.JSONDepth}); over != nil {
		return fmt.Sprintf("%s at column %d (refused before it was parsed)", over.Describe(), over.Col)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &obj); err != nil {
		return "not valid JSON (" + trimJSONError(err) + ")"
	}
	field := func(key string, bit int, dst any) string {
		raw, ok := obj[key]
		if !ok {
			return ""
		}
		if string(raw) == "null" { // JSON null: as good as absent
			return ""
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return "not valid JSON (" + key + ": " + trimJSONError(err) + ")"
		}
		w.has |= bit
		return ""
	}
	var kinds map[string]string
	for _, f := range []struct {
		key string
		bit int
		dst any
	}{
		{"digest", hasDigest, &w.Digest}, {"server", hasServer, &w.Server}, {"command", hasCommand, &w.Command}, {"cwd", hasCwd, &w.Cwd},
		{"grantedAt", hasGrantedAt, &w.GrantedAt}, {"revokes", hasRevokes, &w.Revokes},
		{"revokedAt", hasRevokedAt, &w.RevokedAt}, {"args", hasArgs, &w.Args},
		{"envNames", hasEnvNames, &w.EnvNames}, {"envKinds", hasEnvKinds, &kinds}, {"sandbox", hasSandbox, &w.Sandbox},
		{"secret", hasSecret, &w.Secret}, {"origin", hasOrigin, &w.Origin}, {"headers", hasHeaders, &w.Headers},
	} {
		if r := field(f.key, f.bit, f.dst); r != "" {
			return r
		}
	}
	if w.has&hasArgs != 0 && w.Args == nil {
		w.Args = []string{}
	}
	if w.has&hasEnvNames != 0 && w.EnvNames == nil {
		w.EnvNames = []string{}
	}
	if w.has&hasHeaders != 0 && w.Headers == nil {
		w.Headers = []string{}
	}
	if w.has&hasEnvKinds != 0 {
		w.EnvKinds = make([]EnvKindOf, 0, len(kinds))
		for k, v := range kinds {
			w.EnvKinds = append(w.EnvKinds, EnvKindOf{Name: k, Kind: EnvKind(v)})
		}
		sortKinds(w.EnvKinds)
	}
	if raw, ok := obj["v"]; ok {
		w.has |= hasV
		w.VText = trimText(string(raw))
		if err := json.Unmarshal(raw, &w.V); err != nil {
			w.V = -1 // not a number: an unsupported version
		}
	}
	return ""
}

// fastDecode decodes the shape relavium and the Node hosts write — known keys
// once each; plain strings (no escapes, valid UTF-8); a non-negative integer
// "v"; string arrays; a string-to-string envKinds — without reflection. It
// returns false for anything else, and the caller falls back to slowDecode,
// which alone decides validity. When it returns true, w equals what
// slowDecode would produce (TestFastDecodeAgreesWithSlow checks this).
func fastDecode(line string, w *wireLine, a *arena) bool {
	s := lineScanner{b: line, a: a}
	s.ws()
	if !s.byte('{') {
		return false
	}
	seen := 0
	for first := true; ; first = false {
		s.ws()
		if s.byte('}') {
			if !first && s.prevComma {
				return false
			}
			break
		}
		if !first && !s.prevComma {
			return false
		}
		key, ok := s.str()
		if !ok {
			return false
		}
		s.ws()
		if !s.byte(':') {
			return false
		}
		s.ws()
		bit, ok := s.value(key, w)
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		s.ws()
		s.prevComma = s.byte(',')
	}
	s.ws()
	w.has = seen
	return s.i == len(s.b)
}

type lineScanner struct {
	a         *arena
	b         string
	i         int
	prevComma bool
}

func (s *lineScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

func (s *lineScanner) byte(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// value decodes the value of a known key into w and returns the key's bit.
func (s *lineScanner) value(key string, w *wireLine) (int, bool) {
	var ok bool
	switch key {
	case "v":
		start := s.i
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
		}
		digits := s.b[start:s.i]
		if len(digits) == 0 || len(digits) > 15 || digits[0] == '0' && len(digits) > 1 {
			return 0, false
		}
		if s.i < len(s.b) && strings.IndexByte(" \t\r\n,}", s.b[s.i]) < 0 {
			return 0, false // 1.0, 1e0 and the like go to the reference decoder
		}
		n, err := strconv.ParseInt(digits, 10, 64)
		if err != nil {
			return 0, false
		}
		w.V, w.VText = float64(n), string(digits)
		return hasV, true
	case "digest":
		w.Digest, ok = s.str()
		return hasDigest, ok
	case "server":
		w.Server, ok = s.str()
		return hasServer, ok
	case "sandbox":
		w.Sandbox, ok = s.strArray()
		return hasSandbox, ok
	case "command":
		w.Command, ok = s.str()
		return hasCommand, ok
	case "cwd":
		w.Cwd, ok = s.str()
		return hasCwd, ok
	case "grantedAt":
		w.GrantedAt, ok = s.str()
		return hasGrantedAt, ok
	case "revokes":
		w.Revokes, ok = s.str()
		return hasRevokes, ok
	case "revokedAt":
		w.RevokedAt, ok = s.str()
		return hasRevokedAt, ok
	case "args":
		w.Args, ok = s.strArray()
		return hasArgs, ok
	case "envNames":
		w.EnvNames, ok = s.strArray()
		return hasEnvNames, ok
	case "envKinds":
		w.EnvKinds, ok = s.kinds()
		return hasEnvKinds, ok
	case "secret":
		w.Secret, ok = s.str()
		return hasSecret, ok
	case "origin":
		w.Origin, ok = s.str()
		return hasOrigin, ok
	case "headers":
		w.Headers, ok = s.strArray()
		return hasHeaders, ok
	}
	return 0, false
}

// plainByte marks the bytes a string scan passes over without a second look:
// printable ASCII other than '"' and '\\'. An immutable table.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads a string with no escapes and no control characters; non-ASCII
// must be valid UTF-8 (encoding/json would replace invalid bytes).
func (s *lineScanner) str() (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start, ascii := s.i, true
	for j := start; j < len(s.b); j++ {
		c := s.b[j]
		if plainByte[c] {
			continue // the common case: one lookup per byte
		}
		switch {
		case c == '"':
			if !ascii && !utf8.ValidString(s.b[start:j]) {
				return "", false
			}
			s.i = j + 1
			return s.b[start:j], true // shares the folded buffer: no copy
		case c >= utf8.RuneSelf:
			ascii = false
		default: // a backslash escape or a control character
			return "", false
		}
	}
	return "", false
}

func (s *lineScanner) strArray() ([]string, bool) {
	if !s.byte('[') {
		return nil, false
	}
	a := s.a
	start := len(a.strs)
	s.ws()
	if s.byte(']') {
		return []string{}, true // zero-size: no allocation
	}
	for {
		s.ws()
		v, ok := s.str()
		if !ok {
			a.strs = a.strs[:start]
			return nil, false
		}
		start = a.addString(start, v)
		s.ws()
		if s.byte(']') {
			return a.strs[start:len(a.strs):len(a.strs)], true
		}
		if !s.byte(',') {
			a.strs = a.strs[:start]
			return nil, false
		}
	}
}

// kinds reads envKinds, an object of string to string, into pairs sorted by
// name; a repeated name goes to the reference decoder.
func (s *lineScanner) kinds() ([]EnvKindOf, bool) {
	if !s.byte('{') {
		return nil, false
	}
	a := s.a
	start := len(a.kvs)
	fail := func() ([]EnvKindOf, bool) {
		a.kvs = a.kvs[:start]
		return nil, false
	}
	s.ws()
	if s.byte('}') {
		return []EnvKindOf{}, true
	}
	for {
		s.ws()
		k, ok := s.str()
		if !ok {
			return fail()
		}
		s.ws()
		if !s.byte(':') {
			return fail()
		}
		s.ws()
		v, ok := s.str()
		if !ok {
			return fail()
		}
		start = a.addKind(start, EnvKindOf{Name: k, Kind: EnvKind(v)})
		s.ws()
		if s.byte('}') {
			out := a.kvs[start:len(a.kvs):len(a.kvs)]
			sortKinds(out)
			for i := 1; i < len(out); i++ {
				if out[i].Name == out[i-1].Name {
					return fail()
				}
			}
			return out, true
		}
		if !s.byte(',') {
			return fail()
		}
	}
}

// EnvKindOf is one recorded env name and its kind.
type EnvKindOf struct {
	Name string  `json:"name"`
	Kind EnvKind `json:"kind"`
}

func sortKinds(k []EnvKindOf) {
	slices.SortFunc(k, func(a, b EnvKindOf) int { return strings.Compare(a.Name, b.Name) })
}

// arena is the decoder's scratch for one line: the string and kind slices
// of the line being decoded come from shared chunks, so decoding costs no
// allocation per field. The fold resets it before each line, so nothing may
// keep a slice of it: a grant gets its own copies (wireLine.record). A
// slice is handed out capped (s[i:j:j]); a full chunk is replaced by a new
// one, never grown in place, so a slice stays valid until the next reset.
type arena struct {
	strs []string
	kvs  []EnvKindOf
}

// reset makes the chunks reusable for the next line.
func (a *arena) reset() {
	a.strs, a.kvs = a.strs[:0], a.kvs[:0]
}

const arenaChunk = 4096

// addString appends v to the run of strings that began at start, moving the
// run to a fresh chunk when the current one is full; it returns the run's
// (possibly new) start.
func (a *arena) addString(start int, v string) int {
	if len(a.strs) == cap(a.strs) {
		run := len(a.strs) - start
		fresh := make([]string, run, max(arenaChunk, 2*run+1))
		copy(fresh, a.strs[start:])
		a.strs, start = fresh, 0
	}
	a.strs = append(a.strs, v)
	return start
}

func (a *arena) addKind(start int, v EnvKindOf) int {
	if len(a.kvs) == cap(a.kvs) {
		run := len(a.kvs) - start
		fresh := make([]EnvKindOf, run, max(arenaChunk, 2*run+1))
		copy(fresh, a.kvs[start:])
		a.kvs, start = fresh, 0
	}
	a.kvs = append(a.kvs, v)
	return start
}
