package fields

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/relavium/relavium/nesting"
)

// Tree is a parsed JSON value, objects in document order: what Read walks.
// Of parses JSON text into one; discovery hands Read the tree it already
// parsed a tool's schema into, so admission does not parse a schema twice.
type Tree interface {
	// Len is an object's member count or an array's length (0 otherwise).
	Len() int
	// Member is an object's i-th member in document order.
	Member(i int) (string, Tree)
	// Elem is an array's i-th element.
	Elem(i int) Tree
	// IsObject and IsArray report the value's kind.
	IsObject() bool
	IsArray() bool
	// Str is a string's value.
	Str() (string, bool)
	// Value is the value as encoding/json decodes it into an any (numbers
	// float64); ok is false when it cannot be (a number past float64).
	Value() (any, bool)
}

// jsonTree is a Tree parsed from JSON text with encoding/json's tokenizer.
type jsonTree struct {
	val  any // nil, bool, string, json.Number, or unset for containers
	obj  bool
	arr  bool
	keys []string
	kids []*jsonTree
}

func (t *jsonTree) Len() int                    { return len(t.kids) }
func (t *jsonTree) Member(i int) (string, Tree) { return t.keys[i], t.kids[i] }
func (t *jsonTree) Elem(i int) Tree             { return t.kids[i] }
func (t *jsonTree) IsObject() bool              { return t.obj }
func (t *jsonTree) IsArray() bool               { return t.arr }
func (t *jsonTree) Str() (string, bool)         { s, ok := t.val.(string); return s, ok && !t.obj && !t.arr }
func (t *jsonTree) Value() (any, bool)          { return t.decode() }
func (t *jsonTree) decode() (any, bool) {
	switch {
	case t.obj:
		out := make(map[string]any, len(t.keys))
		for i, k := range t.keys {
			v, ok := t.kids[i].decode()
			if !ok {
				return nil, false
			}
			out[k] = v // the last of a duplicate wins, as encoding/json
		}
		return out, true
	case t.arr:
		out := make([]any, len(t.kids))
		for i, k := range t.kids {
			v, ok := k.decode()
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}
	if n, ok := t.val.(json.Number); ok {
		f, err := strconv.ParseFloat(string(n), 64)
		return f, err == nil
	}
	return t.val, true
}

// parse reads one JSON document into a jsonTree, its nesting measured
// first so the recursion below is bounded.
func parse(data []byte) (*jsonTree, error) {
	if _, over := nesting.JSON(data, nesting.Limits{MaxDepth: nesting.JSONDepth}); over != nil {
		return nil, &DepthError{Over: over}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	t, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("text after the JSON value")
	}
	return t, nil
}

func parseValue(dec *json.Decoder) (*jsonTree, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return &jsonTree{val: tok}, nil
	}
	t := &jsonTree{obj: d == '{', arr: d == '['}
	for dec.More() {
		if t.obj {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := k.(string)
			t.keys = append(t.keys, key)
		}
		kid, err := parseValue(dec)
		if err != nil {
			return nil, err
		}
		t.kids = append(t.kids, kid)
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return nil, fmt.Errorf("unterminated JSON: %w", err)
	}
	return t, nil
}
