package workflow

import (
	"errors"
	"fmt"
	"math"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/relavium/relavium/nesting"

	"github.com/relavium/relavium/engine"
)

// ynode is a YAML value with the position of every node and every mapping
// key, so each authored mistake can name file:line:column.
type ynode struct {
	kind   ykind
	pos    engine.Pos
	scalar any // string, int64, uint64, float64, bool or nil (kind yScalar / yNull)
	keys   []ykey
	items  []*ynode
}

type ykind int

const (
	yNull ykind = iota
	yScalar
	yMap
	ySeq
)

type ykey struct {
	name string
	pos  engine.Pos
	val  *ynode
}

// maxYAMLDepth bounds nesting; deeper documents are refused, not recursed.
// nesting.FileDepth bounds the same before parse, counted in collections
// (64: a value at depth 64 sits in 64 of them; only an empty collection at
// depth 64, a 65th, passes this check and not that one).
const maxYAMLDepth = 64

func (k ykind) String() string {
	switch k {
	case yScalar:
		return "a scalar"
	case yMap:
		return "a mapping"
	case ySeq:
		return "a list"
	}
	return "null"
}

// describe names the node's type for messages ("a string", "a mapping", …).
func (n *ynode) describe() string {
	if n.kind != yScalar {
		return n.kind.String()
	}
	switch n.scalar.(type) {
	case string:
		return "a string"
	case int64, uint64:
		return "an integer"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "a scalar"
}

// parseYAML parses one YAML document. Syntax errors and constructs with no
// JSON form (anchors, aliases, tags, merge keys, non-finite numbers, several
// documents) become problems.
func parseYAML(file string, src []byte) (*ynode, []engine.Problem) {
	// Depth and size are measured before goccy builds its tree: that tree
	// costs memory with the square of the depth, so the check on the
	// converted tree below would come after the damage.
	if _, over := nesting.YAML(src, nesting.Limits{MaxDepth: nesting.FileDepth, MaxNodes: nesting.FileNodes}); over != nil {
		return nil, []engine.Problem{{Pos: engine.Pos{File: file, Line: over.Line, Col: over.Col}, Field: nesting.YAMLTopKey(src, over.Offset),
			Message: fmt.Sprintf("%s (a workflow nests at most %d levels and holds at most %d values); the file was refused before it was parsed",
				over.Describe(), maxYAMLDepth, nesting.FileNodes)}}
	}
	f, err := parser.ParseBytes(src, 0)
	if err != nil {
		return nil, []engine.Problem{syntaxProblem(file, err)}
	}
	var docs []*ast.DocumentNode
	for _, d := range f.Docs {
		if d != nil && d.Body != nil {
			docs = append(docs, d)
		}
	}
	if len(docs) == 0 {
		return nil, []engine.Problem{{Pos: engine.Pos{File: file, Line: 1, Col: 1}, Message: "the file is empty: a workflow needs id, side_effect and steps"}}
	}
	if len(docs) > 1 {
		at := docs[1].Start
		if at == nil {
			at = docs[1].GetToken()
		}
		return nil, []engine.Problem{{Pos: posOf(file, at), Message: "a workflow file holds exactly one YAML document"}}
	}
	c := &yconv{file: file}
	n := c.conv(docs[0].Body, 0)
	return n, c.problems
}

func syntaxProblem(file string, err error) engine.Problem {
	var ye yaml.Error
	if errors.As(err, &ye) && ye.GetToken() != nil {
		return engine.Problem{Pos: posOf(file, ye.GetToken()), Message: "YAML: " + ye.GetMessage()}
	}
	return engine.Problem{Pos: engine.Pos{File: file, Line: 1, Col: 1}, Message: "YAML: " + err.Error()}
}

func posOf(file string, tk *token.Token) engine.Pos {
	if tk == nil || tk.Position == nil {
		return engine.Pos{File: file}
	}
	return engine.Pos{File: file, Line: tk.Position.Line, Col: tk.Position.Column}
}

type yconv struct {
	file     string
	problems []engine.Problem
}

func (c *yconv) fail(n ast.Node, format string, a ...any) *ynode {
	p := posOf(c.file, n.GetToken())
	c.problems = append(c.problems, engine.Problem{Pos: p, Message: fmt.Sprintf(format, a...)})
	return &ynode{kind: yNull, pos: p}
}

func (c *yconv) conv(n ast.Node, depth int) *ynode {
	if n == nil {
		return &ynode{kind: yNull}
	}
	if depth > maxYAMLDepth {
		return c.fail(n, "nesting deeper than %d levels", maxYAMLDepth)
	}
	pos := posOf(c.file, n.GetToken())
	switch v := n.(type) {
	case *ast.NullNode:
		return &ynode{kind: yNull, pos: pos}
	case *ast.StringNode:
		return &ynode{kind: yScalar, pos: pos, scalar: v.Value}
	case *ast.LiteralNode:
		s := ""
		if v.Value != nil {
			s = v.Value.Value
		}
		return &ynode{kind: yScalar, pos: pos, scalar: s}
	case *ast.IntegerNode:
		return &ynode{kind: yScalar, pos: pos, scalar: v.Value}
	case *ast.FloatNode:
		if math.IsInf(v.Value, 0) || math.IsNaN(v.Value) {
			return c.fail(n, "%s has no JSON form", v.GetToken().Value)
		}
		return &ynode{kind: yScalar, pos: pos, scalar: v.Value}
	case *ast.InfinityNode, *ast.NanNode:
		return c.fail(n, "%s has no JSON form", n.GetToken().Value)
	case *ast.BoolNode:
		return &ynode{kind: yScalar, pos: pos, scalar: v.Value}
	case *ast.MappingNode:
		out := &ynode{kind: yMap, pos: pos}
		for _, mv := range v.Values {
			c.entry(out, mv, depth)
		}
		if len(v.Values) > 0 {
			out.pos = out.keys[0].pos
		}
		return out
	case *ast.MappingValueNode:
		out := &ynode{kind: yMap, pos: pos}
		c.entry(out, v, depth)
		if len(out.keys) > 0 {
			out.pos = out.keys[0].pos
		}
		return out
	case *ast.SequenceNode:
		out := &ynode{kind: ySeq, pos: pos}
		for _, item := range v.Values {
			out.items = append(out.items, c.conv(item, depth+1))
		}
		return out
	case *ast.AnchorNode, *ast.AliasNode:
		return c.fail(n, "YAML anchors and aliases are not supported in workflow files: write the value out")
	case *ast.TagNode:
		return c.fail(n, "YAML tags (%s) are not supported in workflow files", n.GetToken().Value)
	}
	return c.fail(n, "unsupported YAML node (%s)", n.Type())
}

func (c *yconv) entry(m *ynode, mv *ast.MappingValueNode, depth int) {
	if mv.Key == nil {
		return
	}
	if mv.Key.IsMergeKey() {
		c.fail(mv.Key, "YAML merge keys (<<) are not supported in workflow files")
		return
	}
	var name string
	switch k := mv.Key.(type) {
	case *ast.StringNode:
		name = k.Value
	case *ast.MappingKeyNode:
		c.fail(mv.Key, "explicit YAML keys (?) are not supported in workflow files")
		return
	default:
		if _, scalar := mv.Key.(ast.ScalarNode); !scalar {
			c.fail(mv.Key, "a mapping key must be a plain string")
			return
		}
		name = mv.Key.GetToken().Value
	}
	m.keys = append(m.keys, ykey{name: name, pos: posOf(c.file, mv.Key.GetToken()), val: c.conv(mv.Value, depth+1)})
}

// jsonValue turns a node into a JSON-ready value (map[string]any, []any,
// string, int64, uint64, float64, bool, nil).
func (n *ynode) jsonValue() any {
	switch n.kind {
	case yScalar:
		return n.scalar
	case yMap:
		m := make(map[string]any, len(n.keys))
		for _, k := range n.keys {
			m[k.name] = k.val.jsonValue()
		}
		return m
	case ySeq:
		s := make([]any, len(n.items))
		for i, it := range n.items {
			s[i] = it.jsonValue()
		}
		return s
	}
	return nil
}

func (n *ynode) str() (string, bool) {
	if n.kind != yScalar {
		return "", false
	}
	s, ok := n.scalar.(string)
	return s, ok
}

// integer returns a YAML integer scalar (goccy yields int64 or uint64).
func (n *ynode) integer() (int64, bool) {
	if n.kind != yScalar {
		return 0, false
	}
	switch v := n.scalar.(type) {
	case int64:
		return v, true
	case uint64:
		if v <= math.MaxInt64 {
			return int64(v), true
		}
	}
	return 0, false
}
