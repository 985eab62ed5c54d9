package authored

import (
	"errors"
	"fmt"
	"unicode/utf8"

	yaml "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/nesting"
)

// Refusal is one thing the YAML reader refuses.
type Refusal int

// The reader's refusals, with the details each one hands to Dialect.Word.
const (
	RefuseUTF8      Refusal = iota // the file is not valid UTF-8
	RefuseNesting                  // nested or sized past nesting's limits; detail: what was passed
	RefuseSyntax                   // the parser's complaint; detail: its message
	RefuseDocuments                // a second document
	RefuseAnchor                   // an anchor (&x), where the file kind does not tolerate one alone
	RefuseAlias                    // an alias (*x); detail: the alias as written
	RefuseTag                      // a tag (!!str); detail: the tag
	RefuseMergeKey                 // a merge key (<<)
	RefuseKey                      // a key that is not a plain string; details: its kind and text, "explicit" for a ? key
	RefuseEscape                   // a double-quoted escape naming no character; details: the escape, why
	RefuseNode                     // a node of a type the reader does not know; detail: the type
)

// Dialect is how one kind of authored file words the reader's refusals.
// What is refused is the same for every kind (see the package comment).
type Dialect struct {
	// Word returns the code and the message of a refusal.
	Word func(r Refusal, detail ...string) (code fault.Code, message string)
	// FieldPaths names the path of a refused value (mcp_servers[1].env) in
	// its problem; without it only the position names it.
	FieldPaths bool
	// LoneAnchors tolerates an anchor: harmless, since every alias that
	// could use it is refused.
	LoneAnchors bool
}

// ReadYAML reads one authored YAML file under the one policy and returns the
// body of its one document: nil when the file holds none (an empty file is
// the caller's to word) or when anything was refused, every refusal then
// being in ps. A caller converts the body it gets to its own tree without
// meeting an alias, a tag, a merge key, a non-string key or a bad escape.
func ReadYAML(file string, data []byte, d Dialect, ps *Problems) ast.Node {
	r := &reader{file: file, data: data, d: d, ps: ps}
	before := len(*ps)
	if !utf8.Valid(data) {
		r.refuse(RefuseUTF8, Pos{File: file, Line: 1, Col: 1}, "")
		return nil
	}
	// Nesting and size are measured before goccy builds anything: its tree
	// of a deeply nested text costs memory with the square of the depth.
	if _, over := nesting.YAML(data, nesting.Limits{MaxDepth: nesting.FileDepth, MaxNodes: nesting.FileNodes}); over != nil {
		code, msg := d.Word(RefuseNesting, over.Describe())
		ps.Add(code, Pos{File: file, Line: over.Line, Col: over.Col}, nesting.YAMLTopKey(data, over.Offset), "%s", msg)
		return nil
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		pos, msg := Pos{File: file, Line: 1, Col: 1}, err.Error()
		var ye yaml.Error
		if errors.As(err, &ye) {
			msg = ye.GetMessage()
			if t := ye.GetToken(); t != nil && t.Position != nil {
				pos = r.pos(t)
			}
		}
		r.refuse(RefuseSyntax, pos, "", msg)
		return nil
	}
	var body ast.Node
	for _, doc := range f.Docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if body != nil {
			at := r.pos(doc.Start)
			if doc.Start == nil {
				at = r.pos(doc.Body.GetToken())
			}
			r.refuse(RefuseDocuments, at, "")
			break
		}
		body = doc.Body
	}
	if body != nil {
		r.walk(body, "")
	}
	if len(*ps) != before {
		return nil
	}
	return body
}

type reader struct {
	file       string
	data       []byte // the file, for the escapes a token does not keep
	runeStarts []int  // byte offset of each rune of data, built on first need
	d          Dialect
	ps         *Problems
}

// PosOf is where a token sits in file.
func PosOf(file string, t *token.Token) Pos {
	if t == nil || t.Position == nil {
		return Pos{File: file}
	}
	return Pos{File: file, Line: t.Position.Line, Col: t.Position.Column}
}

func (r *reader) pos(t *token.Token) Pos { return PosOf(r.file, t) }

func (r *reader) refuse(what Refusal, at Pos, path string, detail ...string) {
	code, msg := r.d.Word(what, detail...)
	if !r.d.FieldPaths {
		path = ""
	}
	r.ps.Add(code, at, path, "%s", msg)
}

// walk applies the policy to every node under n; path is the field path.
func (r *reader) walk(n ast.Node, path string) {
	switch v := n.(type) {
	case nil, *ast.NullNode, *ast.LiteralNode, *ast.IntegerNode, *ast.FloatNode,
		*ast.InfinityNode, *ast.NanNode, *ast.BoolNode:
	case *ast.MappingNode:
		for _, mv := range v.Values {
			r.mappingValue(mv, path)
		}
	case *ast.MappingValueNode:
		r.mappingValue(v, path)
	case *ast.SequenceNode:
		for i, item := range v.Values {
			r.walk(item, fmt.Sprintf("%s[%d]", path, i))
		}
	case *ast.StringNode:
		if v.Token != nil && v.Token.Type == token.DoubleQuoteType {
			if esc, why := badYAMLEscape(r.quotedSource(v.Token)); esc != "" {
				r.refuse(RefuseEscape, r.pos(v.Token), path, esc, why)
			}
		}
	case *ast.AnchorNode:
		if !r.d.LoneAnchors {
			r.refuse(RefuseAnchor, r.pos(v.Start), path)
			return
		}
		r.walk(v.Value, path)
	case *ast.AliasNode:
		r.refuse(RefuseAlias, r.pos(v.Start), path, v.String())
	case *ast.TagNode:
		r.refuse(RefuseTag, r.pos(v.Start), path, v.Start.Value)
	default:
		r.refuse(RefuseNode, r.pos(n.GetToken()), path, n.Type().String())
	}
}

func (r *reader) mappingValue(mv *ast.MappingValueNode, path string) {
	if mv == nil || mv.Key == nil {
		return
	}
	kp := r.pos(mv.Key.GetToken())
	switch k := mv.Key.(type) {
	case *ast.StringNode:
		r.walk(mv.Value, Join(path, k.Value))
	case *ast.MergeKeyNode:
		r.refuse(RefuseMergeKey, kp, Join(path, "<<"))
	case *ast.MappingKeyNode:
		r.refuse(RefuseKey, kp, Join(path, mv.Key.String()), describeKey(mv.Key), "explicit")
	default:
		r.refuse(RefuseKey, kp, Join(path, mv.Key.String()), describeKey(mv.Key))
	}
}

func describeKey(k ast.MapKeyNode) string {
	return fmt.Sprintf("%s %q", k.Type(), k.String())
}

// Join builds a field path: Join("mcp_servers[0]", "env") is
// mcp_servers[0].env; an empty key is written "".
func Join(path, key string) string {
	if key == "" {
		key = `""`
	}
	if path == "" {
		return key
	}
	return path + "." + key
}
