package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"sync"
)

// MinLen is the shortest value a Set matches in free text (see the package
// doc).
const MinLen = 4

// Shown is what a value with no name is replaced by.
const Shown = "[REDACTED]"

// Set is the secret values of a session and what each is shown as. The
// zero value is empty and ready; a nil *Set redacts nothing.
type Set struct {
	mu    sync.RWMutex
	shown map[string]string // spelling → its replacement
	rep   *strings.Replacer // built from shown on first use after a change
}

// New returns an empty Set.
func New() *Set { return &Set{} }

// Add adds value, shown as {{secrets.NAME}} when name is set, else as
// [REDACTED]. A value shorter than MinLen is ignored; adding a value again
// keeps its first shown form.
func (s *Set) Add(name, value string) {
	shown := Shown
	if name != "" {
		shown = "{{secrets." + name + "}}"
	}
	s.AddShown(shown, value)
}

// AddShown adds value, shown as shown (which must hold no character JSON
// escapes: [REDACTED], {{secrets.NAME}}, {{env.VAR}}).
func (s *Set) AddShown(shown, value string) {
	if s == nil || len(value) < MinLen {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shown == nil {
		s.shown = map[string]string{}
	}
	changed := false
	for _, sp := range spellings(value) {
		if _, ok := s.shown[sp]; !ok && len(sp) >= MinLen {
			s.shown[sp] = shown
			changed = true
		}
	}
	if changed {
		s.rep = nil
	}
}

// AddAll adds each value of values, unnamed.
func (s *Set) AddAll(values ...string) {
	for _, v := range values {
		s.Add("", v)
	}
}

// Len is the number of spellings matched.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.shown)
}

// spellings are the forms value is matched in: itself, JSON-escaped (Go's
// encoder with and without HTML escaping, and the \u form of every
// non-ASCII rune a JavaScript encoder may choose), base64 (standard and
// url-safe, padded and not).
func spellings(value string) []string {
	out := []string{value}
	add := func(s string) {
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	for _, html := range []bool{true, false} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		if enc.Encode(value) == nil {
			q := strings.TrimSuffix(b.String(), "\n")
			add(q[1 : len(q)-1])
		}
	}
	add(asciiJSON(value))
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		add(enc.EncodeToString([]byte(value)))
	}
	return out
}

// asciiJSON is value JSON-escaped with every non-ASCII rune as \uXXXX.
func asciiJSON(value string) string {
	b, err := json.Marshal(value)
	if err != nil {
		return value
	}
	var sb strings.Builder
	for _, r := range string(b[1 : len(b)-1]) {
		if r < 0x80 {
			sb.WriteRune(r)
			continue
		}
		for _, u := range utf16Units(r) {
			sb.WriteString(`\u`)
			const hex = "0123456789abcdef"
			sb.WriteByte(hex[u>>12&0xF])
			sb.WriteByte(hex[u>>8&0xF])
			sb.WriteByte(hex[u>>4&0xF])
			sb.WriteByte(hex[u&0xF])
		}
	}
	return sb.String()
}

func utf16Units(r rune) []uint16 {
	if r < 0x10000 {
		return []uint16{uint16(r)}
	}
	r -= 0x10000
	return []uint16{uint16(0xD800 + (r >> 10)), uint16(0xDC00 + (r & 0x3FF))}
}

// replacer is the one-pass replacer of every spelling, longest first.
func (s *Set) replacer() *strings.Replacer {
	s.mu.RLock()
	rep := s.rep
	s.mu.RUnlock()
	if rep != nil {
		return rep
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rep == nil {
		keys := make([]string, 0, len(s.shown))
		for k := range s.shown {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if len(keys[i]) != len(keys[j]) {
				return len(keys[i]) > len(keys[j])
			}
			return keys[i] < keys[j]
		})
		pairs := make([]string, 0, 2*len(keys))
		for _, k := range keys {
			pairs = append(pairs, k, s.shown[k])
		}
		s.rep = strings.NewReplacer(pairs...)
	}
	return s.rep
}

// Text is s with every value replaced.
func (s *Set) Text(text string) string {
	if s == nil || text == "" || s.Len() == 0 {
		return text
	}
	return s.replacer().Replace(text)
}

// Bytes is Text over bytes (p itself when nothing is replaced).
func (s *Set) Bytes(p []byte) []byte {
	if s == nil || len(p) == 0 || s.Len() == 0 {
		return p
	}
	r := s.replacer().Replace(string(p))
	if len(r) == len(p) && r == string(p) {
		return p
	}
	return []byte(r)
}

// JSON is a JSON document with every value replaced (in its escaped
// spellings too). The result is valid JSON whenever data was: a
// replacement needs no escaping. Should a replacement ever break the
// document (a value spanning JSON syntax), the redacted text is returned
// as a JSON string instead, never the raw document.
func (s *Set) JSON(data json.RawMessage) json.RawMessage {
	r := s.Bytes(data)
	if len(r) == len(data) && bytes.Equal(r, data) || !json.Valid(data) || json.Valid(r) {
		return r
	}
	b, _ := json.Marshal(string(r))
	return b
}

// Writer returns w with every Write redacted as a unit. relavium writes a
// whole line or document per Write (the envelope, a human rendering, one
// event), so a value is never split between two of them.
func (s *Set) Writer(w io.Writer) io.Writer {
	if s == nil {
		return w
	}
	if rw, ok := w.(*writer); ok && rw.s == s {
		return w
	}
	return &writer{s: s, w: w}
}

type writer struct {
	s *Set
	w io.Writer
}

func (rw *writer) Write(p []byte) (int, error) {
	if _, err := rw.w.Write(rw.s.Bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap is the writer under the redaction (a terminal check looks
// through it).
func (rw *writer) Unwrap() io.Writer { return rw.w }
