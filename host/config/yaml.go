package config

import (
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	yaml "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/relavium/relavium/nesting"
)

// readYAML turns an agent file into a node tree with goccy/go-yaml's
// positions. One document per file; anchors are tolerated, but aliases,
// merge keys and tags are refused (they make "where was this written"
// ambiguous, and a declaration that spawns a program must be read as
// written). An empty document yields a nil tree and no problem.
func readYAML(file string, data []byte, c *checker) *node {
	if !utf8.Valid(data) {
		c.add(CodeSyntax, Pos{File: file, Line: 1, Col: 1}, "", "the file is not valid UTF-8")
		return nil
	}
	// Nesting and size are measured before goccy builds anything: its tree
	// of a deeply nested text costs memory with the square of the depth.
	if _, over := nesting.YAML(data, fileLimits()); over != nil {
		c.add(CodeNesting, Pos{File: file, Line: over.Line, Col: over.Col}, nesting.YAMLTopKey(data, over.Offset),
			"%s: nothing in this file was parsed (agent and config files nest at most %d levels and hold at most %d values)",
			over.Describe(), nesting.FileDepth, nesting.FileNodes)
		return nil
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		pos := Pos{File: file, Line: 1, Col: 1}
		msg := err.Error()
		var se *yaml.SyntaxError
		if errors.As(err, &se) {
			msg = se.Message
			if se.Token != nil && se.Token.Position != nil {
				pos.Line, pos.Col = se.Token.Position.Line, se.Token.Position.Column
			}
		}
		c.add(CodeSyntax, pos, "", "%s (fix the YAML syntax; nothing else in this file was checked)", msg)
		return nil
	}
	r := &yamlReader{file: file, c: c, data: data}
	var root *node
	for _, doc := range f.Docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if root != nil {
			at := r.pos(doc.Start)
			if doc.Start == nil {
				at = r.pos(doc.Body.GetToken())
			}
			c.add(CodeYAMLFeature, at, "", "an agent file holds one YAML document; move this one to a file of its own")
			break
		}
		root = r.convert(doc.Body, "")
	}
	return root
}

type yamlReader struct {
	file       string
	c          *checker
	data       []byte // the file, for the escapes a token does not keep
	runeStarts []int  // byte offset of each rune of data, built on first need
}

func (r *yamlReader) pos(t *token.Token) Pos {
	if t == nil || t.Position == nil {
		return Pos{File: r.file}
	}
	return Pos{File: r.file, Line: t.Position.Line, Col: t.Position.Column}
}

// bad marks a value already reported, so no second problem is stacked on it.
func bad(p Pos) *node { return &node{kind: kindBad, pos: p} }

func (r *yamlReader) convert(n ast.Node, path string) *node {
	switch v := n.(type) {
	case nil:
		return &node{kind: kindNull}
	case *ast.MappingNode:
		t := &node{kind: kindTable, pos: r.pos(v.Start)}
		if !v.IsFlowStyle && len(v.Values) > 0 && v.Values[0].Key != nil {
			t.pos = r.pos(v.Values[0].Key.GetToken())
		}
		for _, mv := range v.Values {
			r.mappingValue(t, mv, path)
		}
		return t
	case *ast.MappingValueNode:
		t := &node{kind: kindTable, pos: r.pos(v.Key.GetToken())}
		r.mappingValue(t, v, path)
		return t
	case *ast.SequenceNode:
		s := &node{kind: kindArray, pos: r.pos(v.Start)}
		for i, item := range v.Values {
			s.items = append(s.items, r.convert(item, fmt.Sprintf("%s[%d]", path, i)))
		}
		return s
	case *ast.StringNode:
		p := r.pos(v.Token)
		if v.Token != nil && v.Token.Type == token.DoubleQuoteType {
			if esc, why := badYAMLEscape(r.quotedSource(v.Token)); esc != "" {
				r.c.add(CodeValue, p, path, "the escape %s is %s; the YAML reader would silently put another character in its place, so the value used would differ from the one written: remove it, or write the intended character itself (one past U+FFFF as a pair like \\ud83d\\ude00, or as \\U0001f600)", esc, why)
				return bad(p)
			}
		}
		return &node{kind: kindString, pos: p, str: v.Value}
	case *ast.LiteralNode:
		s := ""
		if v.Value != nil {
			s = v.Value.Value
		}
		return &node{kind: kindString, pos: r.pos(v.Start), str: s}
	case *ast.IntegerNode:
		out := &node{kind: kindInt, pos: r.pos(v.Token), spelled: v.Token.Value}
		switch i := v.Value.(type) {
		case int64:
			out.num = i
		case uint64:
			out.num = math.MaxInt64
			if i <= math.MaxInt64 {
				out.num = int64(i)
			}
		}
		return out
	case *ast.FloatNode:
		return &node{kind: kindFloat, pos: r.pos(v.Token), spelled: v.Token.Value}
	case *ast.InfinityNode:
		return &node{kind: kindFloat, pos: r.pos(v.Token), spelled: v.Token.Value}
	case *ast.NanNode:
		return &node{kind: kindFloat, pos: r.pos(v.Token), spelled: v.Token.Value}
	case *ast.BoolNode:
		return &node{kind: kindBool, pos: r.pos(v.Token), bool: v.Value}
	case *ast.NullNode:
		return &node{kind: kindNull, pos: r.pos(v.Token)}
	case *ast.AnchorNode:
		return r.convert(v.Value, path)
	case *ast.AliasNode:
		p := r.pos(v.Start)
		r.c.add(CodeYAMLFeature, p, path, "YAML aliases (%s) are not accepted in agent files; write the value out where it is used", v.String())
		return bad(p)
	case *ast.TagNode:
		p := r.pos(v.Start)
		r.c.add(CodeYAMLFeature, p, path, "YAML tags (%s) are not accepted in agent files; quote a value to make it a string", v.Start.Value)
		return bad(p)
	default:
		p := r.pos(n.GetToken())
		r.c.add(CodeYAMLFeature, p, path, "unsupported YAML node (%s)", n.Type())
		return bad(p)
	}
}

func (r *yamlReader) mappingValue(t *node, mv *ast.MappingValueNode, path string) {
	if mv == nil || mv.Key == nil {
		return
	}
	kp := r.pos(mv.Key.GetToken())
	var key string
	switch k := mv.Key.(type) {
	case *ast.StringNode:
		key = k.Value
	case *ast.MergeKeyNode:
		r.c.add(CodeYAMLFeature, kp, join(path, "<<"), "YAML merge keys (<<) are not accepted in agent files; write every key out")
		return
	default:
		r.c.add(CodeYAMLFeature, kp, join(path, mv.Key.String()), "a key must be a plain string, not %s", describeKey(mv.Key))
		return
	}
	t.fields = append(t.fields, &field{key: key, keyPos: kp, val: r.convert(mv.Value, join(path, key))})
}

func describeKey(k ast.MapKeyNode) string {
	return fmt.Sprintf("%s %q", k.Type(), k.String())
}
