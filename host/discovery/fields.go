package discovery

import "github.com/relavium/relavium/fields"

// A parsed schema is a fields.Tree, so admission reads a tool's fields
// (fields.Read) from the tree it already built instead of parsing the
// schema's text again.

var _ fields.Tree = (*node)(nil)

// Len is an object's member count or an array's length.
func (n *node) Len() int {
	switch n.kind {
	case kObject:
		return len(n.obj)
	case kArray:
		return len(n.arr)
	}
	return 0
}

// Member is an object's i-th member in document order.
func (n *node) Member(i int) (string, fields.Tree) { return n.obj[i].key, n.obj[i].val }

// Elem is an array's i-th element.
func (n *node) Elem(i int) fields.Tree { return n.arr[i] }

// IsObject reports an object.
func (n *node) IsObject() bool { return n.kind == kObject }

// IsArray reports an array.
func (n *node) IsArray() bool { return n.kind == kArray }

// Str is a string's value.
func (n *node) Str() (string, bool) { return n.str, n.kind == kString }

// Value is the value as encoding/json decodes it.
func (n *node) Value() (any, bool) { return anyValue(n) }

// readFields reads an admitted tool's input fields from its parsed schema.
// The schema compiled, so it reads; a tool without properties has an
// empty (non-nil) list.
func readFields(in *node) []fields.Field {
	fs, _ := fields.Read(in)
	if fs == nil {
		fs = []fields.Field{}
	}
	return fs
}
