package config

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/relavium/relavium/nesting"
)

// fileLimits are the caps on an authored file's nesting and size, checked
// before any parser runs.
func fileLimits() nesting.Limits {
	return nesting.Limits{MaxDepth: nesting.FileDepth, MaxNodes: nesting.FileNodes}
}

// readTOML turns a config.toml into a node tree in which every key and
// value keeps its line and column. The go-toml decoder checks the document
// first (syntax, a key defined twice, a table redefined), because the
// unstable parser that gives positions does not enforce those rules; a
// document it refuses yields exactly that one syntax problem.
func readTOML(file string, data []byte) (*node, []Problem) {
	var c checker
	if _, over := nesting.TOML(data, fileLimits()); over != nil {
		c.add(CodeNesting, Pos{File: file, Line: over.Line, Col: over.Col}, nesting.TOMLKey(data, over.Offset),
			"%s: nothing in this file was parsed (agent and config files nest at most %d levels and hold at most %d values)",
			over.Describe(), nesting.FileDepth, nesting.FileNodes)
		return nil, c.problems
	}
	var probe map[string]any
	if err := toml.Unmarshal(data, &probe); err != nil {
		pos := Pos{File: file, Line: 1, Col: 1}
		msg, key := err.Error(), ""
		var de *toml.DecodeError
		if errors.As(err, &de) {
			pos.Line, pos.Col = de.Position()
			msg, key = de.Error(), strings.Join(de.Key(), ".")
		}
		c.add(CodeSyntax, pos, key, "%s (fix the TOML syntax; nothing else in this file was checked)", msg)
		return nil, c.problems
	}
	r := &tomlReader{file: file}
	r.p.Reset(data)
	root := &node{kind: kindTable, pos: Pos{File: file, Line: 1, Col: 1}}
	cur := root
	for r.p.NextExpression() {
		e := r.p.Expression()
		switch e.Kind {
		case unstable.KeyValue:
			r.keyValue(cur, e)
		case unstable.Table:
			cur = r.walk(root, r.keys(e.Key()))
		case unstable.ArrayTable:
			cur = r.arrayTable(root, r.keys(e.Key()))
		}
	}
	if err := r.p.Error(); err != nil {
		pos := Pos{File: file, Line: 1, Col: 1}
		var pe *unstable.ParserError
		if errors.As(err, &pe) && len(pe.Highlight) > 0 {
			pos = r.pos(r.p.Range(pe.Highlight))
		}
		c.add(CodeSyntax, pos, "", "%s", err.Error())
		return nil, c.problems
	}
	return root, nil
}

type tomlReader struct {
	file string
	p    unstable.Parser
}

type keyPart struct {
	name string
	pos  Pos
	end  int // offset just past the key as written
}

func (r *tomlReader) pos(rg unstable.Range) Pos {
	if rg.Length == 0 {
		return Pos{} // the parser records no range for arrays
	}
	s := r.p.Shape(rg).Start
	return Pos{File: r.file, Line: s.Line, Col: s.Column}
}

func (r *tomlReader) keys(it unstable.Iterator) []keyPart {
	var parts []keyPart
	for it.Next() {
		k := it.Node()
		parts = append(parts, keyPart{name: string(k.Data), pos: r.pos(k.Raw), end: int(k.Raw.Offset + k.Raw.Length)})
	}
	return parts
}

// keyValue sets a (possibly dotted) key inside tbl.
func (r *tomlReader) keyValue(tbl *node, e *unstable.Node) {
	parts := r.keys(e.Key())
	if len(parts) == 0 {
		return
	}
	t := r.walk(tbl, parts[:len(parts)-1])
	last := parts[len(parts)-1]
	v, _ := r.value(e.Value())
	if v.pos.Line == 0 {
		v.pos = r.valueStart(last.end)
	}
	fillPos(v, last.pos)
	t.set(last.name, last.pos, v)
}

// fillPos gives the values the parser left without a range (arrays nested
// in arrays) the place of their nearest positioned parent.
func fillPos(n *node, parent Pos) {
	if n.pos.Line == 0 {
		n.pos = parent
	}
	for _, it := range n.items {
		fillPos(it, n.pos)
	}
}

// valueStart finds where the value of `key = value` begins, for the nodes
// (arrays) the parser records no range for: past the key, '=' and blanks.
func (r *tomlReader) valueStart(off int) Pos {
	data := r.p.Data()
	blank := func() {
		for off < len(data) && (data[off] == ' ' || data[off] == '\t') {
			off++
		}
	}
	blank()
	if off < len(data) && data[off] == '=' {
		off++
	}
	blank()
	if off >= len(data) {
		return Pos{}
	}
	return r.pos(unstable.Range{Offset: uint32(off), Length: 1}) //nolint:gosec // config files are bounded to 1 MiB
}

// walk descends through tables (creating the implicit ones); a name that
// holds an array of tables means its last element, as TOML defines.
func (r *tomlReader) walk(t *node, parts []keyPart) *node {
	for _, part := range parts {
		f := t.get(part.name)
		if f == nil {
			child := &node{kind: kindTable, pos: part.pos}
			t.set(part.name, part.pos, child)
			t = child
			continue
		}
		switch {
		case f.val.kind == kindTable:
			t = f.val
		case f.val.kind == kindArray && len(f.val.items) > 0 && f.val.items[len(f.val.items)-1].kind == kindTable:
			t = f.val.items[len(f.val.items)-1]
		default:
			// Unreachable for a document the decoder accepted; stay safe.
			t = &node{kind: kindTable, pos: part.pos}
		}
	}
	return t
}

// arrayTable appends a new table to the array named by [[a.b]].
func (r *tomlReader) arrayTable(root *node, parts []keyPart) *node {
	if len(parts) == 0 {
		return &node{kind: kindTable}
	}
	t := r.walk(root, parts[:len(parts)-1])
	last := parts[len(parts)-1]
	f := t.get(last.name)
	if f == nil {
		t.set(last.name, last.pos, &node{kind: kindArray, pos: last.pos})
		f = t.get(last.name)
	}
	elem := &node{kind: kindTable, pos: last.pos}
	if f.val.kind == kindArray {
		f.val.items = append(f.val.items, elem)
	}
	return elem
}

// value converts one value. start is the byte offset where the value is
// written, or -1 when it cannot be known (an array with nothing inside).
func (r *tomlReader) value(v *unstable.Node) (n *node, start int) {
	n = &node{pos: r.pos(v.Raw), spelled: string(v.Data)}
	start = -1
	if v.Raw.Length > 0 {
		start = int(v.Raw.Offset)
	}
	switch v.Kind {
	case unstable.String:
		n.kind, n.str = kindString, string(v.Data)
	case unstable.Bool:
		n.kind, n.bool = kindBool, string(v.Data) == "true"
	case unstable.Integer:
		n.kind = kindInt
		i, err := strconv.ParseInt(string(v.Data), 0, 64)
		if err != nil { // out of range: saturate, so range rules refuse it
			i = math.MaxInt64
			if len(v.Data) > 0 && v.Data[0] == '-' {
				i = math.MinInt64
			}
		}
		n.num = i
	case unstable.Float:
		n.kind = kindFloat
	case unstable.Array:
		n.kind = kindArray
		it := v.Children()
		first := -1
		for it.Next() {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			item, at := r.value(c)
			if len(n.items) == 0 {
				first = at
			}
			n.items = append(n.items, item)
		}
		// The parser records no range for an array: its '[' is found just
		// before its first element, when only blanks lie between them.
		if start = r.openBracket(first); start >= 0 {
			n.pos = r.pos(unstable.Range{Offset: uint32(start), Length: 1}) //nolint:gosec // config files are bounded to 1 MiB
		}
	case unstable.InlineTable:
		n.kind = kindTable
		it := v.Children()
		for it.Next() {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				r.keyValue(n, c)
			}
		}
	default:
		n.kind = kindOther
	}
	return n, start
}

// openBracket returns the offset of the '[' that opens an array whose first
// element starts at off, or -1 when off is unknown or anything but blanks
// (a comment) lies between them.
func (r *tomlReader) openBracket(off int) int {
	data := r.p.Data()
	if off < 0 || off > len(data) {
		return -1
	}
	for i := off - 1; i >= 0; i-- {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case '[':
			return i
		}
		return -1
	}
	return -1
}
