package discovery

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Why a parser of our own: discovery must see a server's tools exactly as
// sent — member order (forms follow it), duplicate and case-variant keys
// (encoding/json silently keeps the last one and matches struct fields
// case-insensitively), invalid UTF-8 and lone surrogate escapes (which
// encoding/json silently turns into U+FFFD). encoding/json cannot report
// any of these and encoding/json/jsontext needs GOEXPERIMENT=jsonv2. The
// grammar is RFC 8259; a differential test checks it against encoding/json.

type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
	kTooDeep // a value nested deeper than maxParseDepth, skipped unparsed
)

// node is one parsed JSON value. Objects keep their members in order,
// duplicates included.
type node struct {
	kind   kind
	str    string // string value, or the number literal as written
	b      bool
	bad    bool // the string held invalid UTF-8 or a lone surrogate (replaced by U+FFFD in str)
	arr    []*node
	obj    []member
	offset int // byte offset of the value in the parsed document
}

type member struct {
	key    string
	keyBad bool // the key held invalid UTF-8 or a lone surrogate
	val    *node
}

// get returns the value of the first member named key, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kObject {
		return nil
	}
	for i := range n.obj {
		if n.obj[i].key == key {
			return n.obj[i].val
		}
	}
	return nil
}

// maxParseDepth bounds recursion while parsing; deeper values are skipped
// without being built and marked kTooDeep, so no input can exhaust the
// stack. Schemas are refused far shallower (Options.MaxSchemaDepth).
const maxParseDepth = 256

// errSyntax is returned for a document that is not JSON.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("invalid JSON at byte %d: %s", e.off, e.msg) }

// parseJSON parses one JSON document (surrounding whitespace allowed).
func parseJSON(data []byte) (*node, error) {
	p := &parser{data: data}
	p.ws()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.data) {
		return nil, p.fail("data after the top-level value")
	}
	return n, nil
}

type parser struct {
	data []byte
	i    int
}

func (p *parser) fail(msg string) error { return &syntaxError{off: p.i, msg: msg} }

func (p *parser) ws() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (*node, error) {
	if p.i >= len(p.data) {
		return nil, p.fail("unexpected end of input")
	}
	start := p.i
	switch c := p.data[p.i]; c {
	case '{', '[':
		if depth >= maxParseDepth {
			if err := p.skipDeep(); err != nil {
				return nil, err
			}
			return &node{kind: kTooDeep, offset: start}, nil
		}
		if c == '{' {
			return p.object(depth)
		}
		return p.array(depth)
	case '"':
		s, bad, err := p.str()
		if err != nil {
			return nil, err
		}
		return &node{kind: kString, str: s, bad: bad, offset: start}, nil
	case 't':
		return p.literal("true", &node{kind: kBool, b: true, offset: start})
	case 'f':
		return p.literal("false", &node{kind: kBool, offset: start})
	case 'n':
		return p.literal("null", &node{kind: kNull, offset: start})
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return p.number()
		}
		return nil, p.fail(fmt.Sprintf("unexpected character %q", c))
	}
}

func (p *parser) literal(word string, n *node) (*node, error) {
	if len(p.data)-p.i < len(word) || string(p.data[p.i:p.i+len(word)]) != word {
		return nil, p.fail("invalid literal")
	}
	p.i += len(word)
	return n, nil
}

func (p *parser) object(depth int) (*node, error) {
	n := &node{kind: kObject, offset: p.i}
	p.i++ // {
	p.ws()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return n, nil
	}
	for {
		p.ws()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, p.fail("expected an object key")
		}
		k, bad, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, p.fail("expected ':' after an object key")
		}
		p.i++
		p.ws()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.obj = append(n.obj, member{key: k, keyBad: bad, val: v})
		p.ws()
		if p.i >= len(p.data) {
			return nil, p.fail("unterminated object")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return n, nil
		default:
			return nil, p.fail("expected ',' or '}' in an object")
		}
	}
}

func (p *parser) array(depth int) (*node, error) {
	n := &node{kind: kArray, offset: p.i}
	p.i++ // [
	p.ws()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return n, nil
	}
	for {
		p.ws()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.arr = append(n.arr, v)
		p.ws()
		if p.i >= len(p.data) {
			return nil, p.fail("unterminated array")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return n, nil
		default:
			return nil, p.fail("expected ',' or ']' in an array")
		}
	}
}

// skipDeep skips a container without building it (iteratively), checking
// only bracket balance and string syntax.
func (p *parser) skipDeep() error {
	var stack []byte
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch c {
		case '{', '[':
			stack = append(stack, c)
			p.i++
		case '}', ']':
			if len(stack) == 0 || (c == '}') != (stack[len(stack)-1] == '{') {
				return p.fail("mismatched bracket")
			}
			stack = stack[:len(stack)-1]
			p.i++
			if len(stack) == 0 {
				return nil
			}
		case '"':
			if _, _, err := p.str(); err != nil {
				return err
			}
		default:
			p.i++
		}
	}
	return p.fail("unterminated value")
}

func (p *parser) number() (*node, error) {
	start := p.i
	d := p.data
	if d[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(d) && d[p.i] == '0':
		p.i++
	case p.i < len(d) && d[p.i] >= '1' && d[p.i] <= '9':
		for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
			p.i++
		}
	default:
		return nil, p.fail("invalid number")
	}
	if p.i < len(d) && d[p.i] == '.' {
		p.i++
		if p.i >= len(d) || d[p.i] < '0' || d[p.i] > '9' {
			return nil, p.fail("invalid number")
		}
		for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
			p.i++
		}
	}
	if p.i < len(d) && (d[p.i] == 'e' || d[p.i] == 'E') {
		p.i++
		if p.i < len(d) && (d[p.i] == '+' || d[p.i] == '-') {
			p.i++
		}
		if p.i >= len(d) || d[p.i] < '0' || d[p.i] > '9' {
			return nil, p.fail("invalid number")
		}
		for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
			p.i++
		}
	}
	return &node{kind: kNumber, str: string(d[start:p.i]), offset: start}, nil
}

// str parses a string literal at p.i. bad reports invalid UTF-8 or a lone
// surrogate escape; each is replaced by U+FFFD in the result.
func (p *parser) str() (s string, bad bool, err error) {
	p.i++ // opening quote
	start := p.i
	d := p.data
	// Fast path: no escapes, ASCII or valid UTF-8.
	for p.i < len(d) {
		c := d[p.i]
		if c == '"' {
			s = string(d[start:p.i])
			p.i++
			if !utf8.ValidString(s) {
				return string(toValidUTF8(d[start : p.i-1])), true, nil
			}
			return s, false, nil
		}
		if c == '\\' {
			return p.strEscaped(start)
		}
		if c < 0x20 {
			return "", false, p.fail("control character in a string")
		}
		p.i++
	}
	return "", false, p.fail("unterminated string")
}

// strEscaped finishes a string literal that began at start and holds an
// escape at p.i: the slow path, decoding into a buffer.
func (p *parser) strEscaped(start int) (s string, bad bool, err error) {
	d := p.data
	buf := make([]byte, 0, p.i-start+16)
	buf = append(buf, d[start:p.i]...)
	for p.i < len(d) {
		c := d[p.i]
		switch {
		case c == '"':
			p.i++
			if !utf8.Valid(buf) {
				return string(toValidUTF8(buf)), true, nil
			}
			return string(buf), bad, nil
		case c < 0x20:
			return "", false, p.fail("control character in a string")
		case c != '\\':
			buf = append(buf, c)
			p.i++
			continue
		}
		var lone bool
		if buf, lone, err = p.escape(buf); err != nil {
			return "", false, err
		}
		bad = bad || lone
	}
	return "", false, p.fail("unterminated string")
}

// escape decodes the escape at p.i (its backslash) onto buf. lone reports
// a surrogate with no partner, appended as U+FFFD.
func (p *parser) escape(buf []byte) (_ []byte, lone bool, err error) {
	d := p.data
	if p.i+1 >= len(d) {
		return buf, false, p.fail("unterminated escape")
	}
	e := d[p.i+1]
	p.i += 2
	switch e {
	case '"', '\\', '/':
		return append(buf, e), false, nil
	case 'b':
		return append(buf, '\b'), false, nil
	case 'f':
		return append(buf, '\f'), false, nil
	case 'n':
		return append(buf, '\n'), false, nil
	case 'r':
		return append(buf, '\r'), false, nil
	case 't':
		return append(buf, '\t'), false, nil
	case 'u':
		return p.unicodeEscape(buf)
	}
	return buf, false, p.fail("invalid escape")
}

// unicodeEscape decodes a \uXXXX whose "\u" was read, joining a high
// surrogate with the low one that follows it; a surrogate without its
// partner becomes U+FFFD (lone), and the escape after it is read on its own.
func (p *parser) unicodeEscape(buf []byte) (_ []byte, lone bool, err error) {
	d := p.data
	r, ok := p.hex4()
	if !ok {
		return buf, false, p.fail("invalid \\u escape")
	}
	if !utf16.IsSurrogate(r) {
		return utf8.AppendRune(buf, r), false, nil
	}
	if r < 0xdc00 && p.i+1 < len(d) && d[p.i] == '\\' && d[p.i+1] == 'u' {
		save := p.i
		p.i += 2
		r2, ok := p.hex4()
		if !ok {
			return buf, false, p.fail("invalid \\u escape")
		}
		if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
			return utf8.AppendRune(buf, dec), false, nil
		}
		p.i = save // the second escape is processed on its own
	}
	return utf8.AppendRune(buf, utf8.RuneError), true, nil
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.data[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(v), true
}

// toValidUTF8 replaces each invalid byte by U+FFFD, as encoding/json does.
func toValidUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

var errNotObject = errors.New("not a JSON object")
