package workflow

import (
	"fmt"
	"math"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/relavium/relavium/authored"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/nesting"
)

// ynode is a YAML value with the position of every node and every mapping
// key, so each authored mistake can name file:line:column.
type ynode struct {
	kind   ykind
	pos    authored.Pos
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
	pos  authored.Pos
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

// workflowYAML words the authored layer's YAML refusals for workflow files
// (their problems take the file's code, E600, from the error that carries
// them).
var workflowYAML = authored.Dialect{Word: func(r authored.Refusal, d ...string) (fault.Code, string) {
	switch r {
	case authored.RefuseUTF8:
		return "", "the file is not valid UTF-8"
	case authored.RefuseNesting:
		return "", fmt.Sprintf("%s (a workflow nests at most %d levels and holds at most %d values); the file was refused before it was parsed",
			d[0], maxYAMLDepth, nesting.FileNodes)
	case authored.RefuseSyntax:
		return "", "YAML: " + d[0]
	case authored.RefuseDocuments:
		return "", "a workflow file holds exactly one YAML document"
	case authored.RefuseAnchor, authored.RefuseAlias:
		return "", "YAML anchors and aliases are not supported in workflow files: write the value out"
	case authored.RefuseTag:
		return "", fmt.Sprintf("YAML tags (%s) are not supported in workflow files", d[0])
	case authored.RefuseMergeKey:
		return "", "YAML merge keys (<<) are not supported in workflow files"
	case authored.RefuseKey:
		if len(d) > 1 {
			return "", "explicit YAML keys (?) are not supported in workflow files"
		}
		return "", "a mapping key must be a plain string"
	case authored.RefuseEscape:
		return "", fmt.Sprintf("the escape %s is %s; the YAML reader would silently put another character in its place, so the value used would differ from the one written: remove it, or write the intended character itself (one past U+FFFF as a pair like \\ud83d\\ude00, or as \\U0001f600)", d[0], d[1])
	}
	return "", "unsupported YAML node (" + d[0] + ")"
}}

// parseYAML reads one workflow file through the authored layer's one YAML
// reader (its policy is in package authored), then converts the body:
// values with no JSON form (non-finite numbers) become problems here.
func parseYAML(file string, src []byte) (*ynode, []authored.Problem) {
	var ps authored.Problems
	body := authored.ReadYAML(file, src, workflowYAML, &ps)
	if len(ps) > 0 {
		return nil, ps
	}
	if body == nil {
		return nil, []authored.Problem{{Pos: authored.Pos{File: file, Line: 1, Col: 1}, Message: "the file is empty: a workflow needs id, side_effect and steps"}}
	}
	c := &yconv{file: file}
	n := c.conv(body, 0)
	return n, c.problems
}

func posOf(file string, tk *token.Token) authored.Pos { return authored.PosOf(file, tk) }

type yconv struct {
	file     string
	problems authored.Problems
}

func (c *yconv) fail(n ast.Node, format string, a ...any) *ynode {
	p := posOf(c.file, n.GetToken())
	c.problems.Add("", p, "", format, a...)
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
	}
	return &ynode{kind: yNull, pos: pos} // refused by the reader
}

func (c *yconv) entry(m *ynode, mv *ast.MappingValueNode, depth int) {
	if k, ok := mv.Key.(*ast.StringNode); ok {
		m.keys = append(m.keys, ykey{name: k.Value, pos: posOf(c.file, k.GetToken()), val: c.conv(mv.Value, depth+1)})
	}
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
