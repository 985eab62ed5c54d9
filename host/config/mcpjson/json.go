package mcpjson

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/relavium/relavium/authored"
	"github.com/relavium/relavium/nesting"
)

// MaxFileBytes bounds one client file: ~/.claude.json keeps history and
// grows, but never near this; anything larger is refused unread.
const MaxFileBytes = 4 << 20

// FileLimits are the caps of a client's project file (.mcp.json,
// .vscode/mcp.json, .cursor/mcp.json, Claude Desktop's): those of every
// authored file.
func FileLimits() nesting.Limits {
	return nesting.Limits{MaxDepth: nesting.FileDepth, MaxNodes: nesting.FileNodes}
}

// StateLimits are the caps of ~/.claude.json, which Claude Code also keeps
// its per-project history in: the same depth, ten times the values.
func StateLimits() nesting.Limits {
	return nesting.Limits{MaxDepth: nesting.FileDepth, MaxNodes: 10 * nesting.FileNodes}
}

// Kind is the JSON type of a Value.
type Kind int

// Value kinds.
const (
	Null Kind = iota
	String
	Number
	Bool
	Object
	Array
)

func (k Kind) String() string {
	switch k {
	case String:
		return "a string"
	case Number:
		return "a number"
	case Bool:
		return "a boolean"
	case Object:
		return "an object"
	case Array:
		return "an array"
	}
	return "null"
}

// Value is one JSON value with the place it starts.
type Value struct {
	Kind    Kind
	Pos     authored.Pos
	Str     string // String: the decoded text; Number: the text as written
	Bool    bool
	Members []Member // Object, in written order
	Items   []*Value // Array
}

// Member is one key of an object.
type Member struct {
	Key    string
	KeyPos authored.Pos
	Value  *Value
}

// Get returns the member named key, or nil.
func (v *Value) Get(key string) *Member {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := range v.Members {
		if v.Members[i].Key == key {
			return &v.Members[i]
		}
	}
	return nil
}

// Parse reads a JSON text (with the JSONC liberties VS Code's files take:
// // and /* */ comments, a trailing comma) into positioned values. The text
// is measured by package nesting first (nesting.JSONC: brackets in a
// comment or a string never count, as they never build anything), and the
// parser keeps its own count of depth and values besides. Every refusal is one CodeSyntax or CodeNesting
// problem: nothing of a text that fails is returned.
func Parse(file string, data []byte, lim nesting.Limits) (*Value, *authored.Problem) {
	if len(data) > MaxFileBytes {
		return nil, &authored.Problem{Code: CodeNesting, Pos: authored.Pos{File: file, Line: 1, Col: 1},
			Message: fmt.Sprintf("the file is larger than %d bytes; a client's MCP file is never that big", MaxFileBytes)}
	}
	if _, over := nesting.JSONC(data, lim); over != nil {
		return nil, nestingProblem(file, over)
	}
	p := &parser{file: file, src: data, lim: lim}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		p.off = 3 // a byte order mark, which some editors on Windows write
	}
	v := p.value(0)
	if p.err == nil {
		p.blank()
		if p.off < len(p.src) {
			p.fail(p.off, "unexpected %s after the end of the document", p.describe())
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return v, nil
}

func nestingProblem(file string, over *nesting.Exceeded) *authored.Problem {
	return &authored.Problem{Code: CodeNesting, Pos: authored.Pos{File: file, Line: over.Line, Col: over.Col},
		Message: fmt.Sprintf("%s: nothing in this file was read", over.Describe())}
}

type parser struct {
	file  string
	src   []byte
	off   int
	lim   nesting.Limits
	nodes int
	err   *authored.Problem
	// at is the position cursor: positions are asked for in reading
	// order, so each is found from the last one (linear in the file).
	atOff, atLine, atCol int
}

// pos is the line and column (in characters) of byte off, as
// nesting.LineCol counts them (CR LF, LF and a lone CR end a line).
func (p *parser) pos(off int) authored.Pos {
	if p.atLine == 0 || off < p.atOff {
		p.atOff, p.atLine, p.atCol = 0, 1, 1
	}
	off = min(off, len(p.src))
	for i := p.atOff; i < off; {
		switch c := p.src[i]; {
		case c == '\n' || c == '\r' && (i+1 >= len(p.src) || p.src[i+1] != '\n'):
			p.atLine, p.atCol = p.atLine+1, 1
			i++
		case c < utf8.RuneSelf:
			p.atCol++
			i++
		default:
			_, n := utf8.DecodeRune(p.src[i:])
			p.atCol++
			i += n
		}
	}
	p.atOff = off
	return authored.Pos{File: p.file, Line: p.atLine, Col: p.atCol}
}

func (p *parser) fail(off int, format string, a ...any) {
	if p.err == nil {
		p.err = &authored.Problem{Code: CodeSyntax, Pos: p.pos(off), Message: fmt.Sprintf(format, a...) + " (fix the JSON; nothing else in this file was read)"}
	}
}

func (p *parser) describe() string {
	if p.off >= len(p.src) {
		return "end of file"
	}
	r, _ := utf8.DecodeRune(p.src[p.off:])
	if r == utf8.RuneError {
		return "byte that is not UTF-8"
	}
	return strconv.QuoteRune(r)
}

// blank skips white space and comments.
func (p *parser) blank() {
	for p.off < len(p.src) && p.err == nil {
		switch c := p.src[p.off]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.off++
		case c == '/' && p.off+1 < len(p.src) && p.src[p.off+1] == '/':
			for p.off < len(p.src) && p.src[p.off] != '\n' && p.src[p.off] != '\r' { // a lone CR ends a line too
				p.off++
			}
		case c == '/' && p.off+1 < len(p.src) && p.src[p.off+1] == '*':
			end := strings.Index(string(p.src[p.off+2:]), "*/")
			if end < 0 {
				p.fail(p.off, "a /* comment is never closed")
				return
			}
			p.off += 2 + end + 2
		default:
			return
		}
	}
}

// count records one value; false once a cap is passed.
func (p *parser) count(depth, off int) bool {
	p.nodes++
	switch {
	case p.nodes > p.lim.MaxNodes:
		p.over(nesting.WhatNodes, p.lim.MaxNodes, off)
		return false
	case depth > p.lim.MaxDepth:
		p.over(nesting.WhatDepth, p.lim.MaxDepth, off)
		return false
	}
	return true
}

func (p *parser) over(what string, limit, off int) {
	at := p.pos(off)
	p.err = nestingProblem(p.file, &nesting.Exceeded{What: what, Limit: limit, Offset: off, Line: at.Line, Col: at.Col})
}

// value reads one value at depth (the number of containers around it).
func (p *parser) value(depth int) *Value {
	p.blank()
	if p.err != nil {
		return nil
	}
	if p.off >= len(p.src) {
		p.fail(p.off, "unexpected end of file: a value was expected")
		return nil
	}
	start := p.off
	v := &Value{Pos: p.pos(start)}
	c := p.src[p.off]
	if c == '{' || c == '[' {
		if !p.count(depth+1, start) {
			return nil
		}
	} else if !p.count(depth, start) {
		return nil
	}
	switch {
	case c == '{':
		v.Kind = Object
		p.object(v, depth+1)
	case c == '[':
		v.Kind = Array
		p.array(v, depth+1)
	case c == '"':
		v.Kind, v.Str = String, p.str()
	case c == '-' || c >= '0' && c <= '9':
		v.Kind, v.Str = Number, p.number()
	case p.word("true"):
		v.Kind, v.Bool = Bool, true
	case p.word("false"):
		v.Kind = Bool
	case p.word("null"):
		v.Kind = Null
	default:
		p.fail(start, "unexpected %s: a value was expected", p.describe())
	}
	if p.err != nil {
		return nil
	}
	return v
}

func (p *parser) word(w string) bool {
	if strings.HasPrefix(string(p.src[p.off:min(len(p.src), p.off+len(w))]), w) {
		p.off += len(w)
		return true
	}
	return false
}

func (p *parser) object(v *Value, depth int) {
	p.off++ // {
	seen := map[string]authored.Pos{}
	for {
		p.blank()
		if p.err != nil {
			return
		}
		if p.off < len(p.src) && p.src[p.off] == '}' {
			p.off++
			return
		}
		if p.off >= len(p.src) || p.src[p.off] != '"' {
			p.fail(p.off, "unexpected %s: a key in double quotes or '}' was expected", p.describe())
			return
		}
		keyOff := p.off
		if !p.count(depth, keyOff) {
			return
		}
		key := p.str()
		if p.err != nil {
			return
		}
		keyPos := p.pos(keyOff)
		if prev, dup := seen[key]; dup {
			p.fail(keyOff, "key %q appears twice in one object (first at %d:%d): clients disagree on which one wins, so relavium reads neither", key, prev.Line, prev.Col)
			return
		}
		seen[key] = keyPos
		p.blank()
		if p.off >= len(p.src) || p.src[p.off] != ':' {
			p.fail(p.off, "unexpected %s: ':' was expected after the key", p.describe())
			return
		}
		p.off++
		val := p.value(depth)
		if p.err != nil {
			return
		}
		v.Members = append(v.Members, Member{Key: key, KeyPos: keyPos, Value: val})
		if !p.separator('}') {
			return
		}
	}
}

func (p *parser) array(v *Value, depth int) {
	p.off++ // [
	for {
		p.blank()
		if p.err != nil {
			return
		}
		if p.off < len(p.src) && p.src[p.off] == ']' {
			p.off++
			return
		}
		item := p.value(depth)
		if p.err != nil {
			return
		}
		v.Items = append(v.Items, item)
		if !p.separator(']') {
			return
		}
	}
}

// separator reads the ',' after a member or item, or sees the closing
// bracket (left for the loop to consume). A trailing comma is JSONC's.
func (p *parser) separator(closing byte) bool {
	p.blank()
	if p.err != nil {
		return false
	}
	switch {
	case p.off < len(p.src) && p.src[p.off] == ',':
		p.off++
		return true
	case p.off < len(p.src) && p.src[p.off] == closing:
		return true
	}
	p.fail(p.off, "unexpected %s: ',' or '%c' was expected", p.describe(), closing)
	return false
}
