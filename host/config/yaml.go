package config

import (
	"fmt"
	"math"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/relavium/relavium/authored"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/nesting"
)

// agentDialect words the authored layer's YAML refusals for agent files, with
// config's codes. An anchor alone is tolerated: every alias is refused.
var agentDialect = authored.Dialect{FieldPaths: true, LoneAnchors: true, Word: func(r authored.Refusal, d ...string) (fault.Code, string) {
	switch r {
	case authored.RefuseUTF8:
		return CodeSyntax, "the file is not valid UTF-8"
	case authored.RefuseNesting:
		return CodeNesting, fmt.Sprintf("%s: nothing in this file was parsed (agent and config files nest at most %d levels and hold at most %d values)",
			d[0], nesting.FileDepth, nesting.FileNodes)
	case authored.RefuseSyntax:
		return CodeSyntax, d[0] + " (fix the YAML syntax; nothing else in this file was checked)"
	case authored.RefuseDocuments:
		return CodeYAMLFeature, "an agent file holds one YAML document; move this one to a file of its own"
	case authored.RefuseAlias:
		return CodeYAMLFeature, fmt.Sprintf("YAML aliases (%s) are not accepted in agent files; write the value out where it is used", d[0])
	case authored.RefuseTag:
		return CodeYAMLFeature, fmt.Sprintf("YAML tags (%s) are not accepted in agent files; quote a value to make it a string", d[0])
	case authored.RefuseMergeKey:
		return CodeYAMLFeature, "YAML merge keys (<<) are not accepted in agent files; write every key out"
	case authored.RefuseKey:
		return CodeYAMLFeature, "a key must be a plain string, not " + d[0]
	case authored.RefuseEscape:
		return CodeValue, fmt.Sprintf("the escape %s is %s; the YAML reader would silently put another character in its place, so the value used would differ from the one written: remove it, or write the intended character itself (one past U+FFFF as a pair like \\ud83d\\ude00, or as \\U0001f600)", d[0], d[1])
	}
	return CodeYAMLFeature, "unsupported YAML node (" + d[0] + ")"
}}

// readYAML turns an agent file into a node tree with goccy/go-yaml's
// positions, through the authored layer's one YAML reader (its policy is in
// package authored). An empty document yields a nil tree and no problem.
func readYAML(file string, data []byte, c *checker) *node {
	var ps authored.Problems
	body := authored.ReadYAML(file, data, agentDialect, &ps)
	c.adopt(ps)
	if body == nil {
		return nil
	}
	r := &yamlReader{file: file}
	return r.convert(body)
}

type yamlReader struct {
	file string
}

func (r *yamlReader) pos(t *token.Token) Pos { return authored.PosOf(r.file, t) }

// bad marks a value already reported, so no second problem is stacked on it.
func bad(p Pos) *node { return &node{kind: kindBad, pos: p} }

// convert builds the node tree of a body the authored reader let through:
// no alias, tag, merge key, non-string key or bad escape is left in it.
func (r *yamlReader) convert(n ast.Node) *node {
	switch v := n.(type) {
	case nil:
		return &node{kind: kindNull}
	case *ast.MappingNode:
		t := &node{kind: kindTable, pos: r.pos(v.Start)}
		if !v.IsFlowStyle && len(v.Values) > 0 && v.Values[0].Key != nil {
			t.pos = r.pos(v.Values[0].Key.GetToken())
		}
		for _, mv := range v.Values {
			r.mappingValue(t, mv)
		}
		return t
	case *ast.MappingValueNode:
		t := &node{kind: kindTable, pos: r.pos(v.Key.GetToken())}
		r.mappingValue(t, v)
		return t
	case *ast.SequenceNode:
		s := &node{kind: kindArray, pos: r.pos(v.Start)}
		for _, item := range v.Values {
			s.items = append(s.items, r.convert(item))
		}
		return s
	case *ast.StringNode:
		return &node{kind: kindString, pos: r.pos(v.Token), str: v.Value}
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
		return r.convert(v.Value)
	}
	return bad(r.pos(n.GetToken())) // refused by the reader
}

func (r *yamlReader) mappingValue(t *node, mv *ast.MappingValueNode) {
	if mv == nil || mv.Key == nil {
		return
	}
	if k, ok := mv.Key.(*ast.StringNode); ok {
		t.fields = append(t.fields, &field{key: k.Value, keyPos: r.pos(k.GetToken()), val: r.convert(mv.Value)})
	}
}
