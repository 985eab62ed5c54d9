package config

// node is one authored value with its position, the shape both the TOML
// and the YAML readers produce. Every rule is checked on nodes, so the two
// surfaces (a [[mcp_servers]] registration and an agent's inline entry)
// share one validator and cannot drift.
type node struct {
	kind   kind
	pos    Pos // where the value starts (for a table: its header or first key)
	str    string
	num    int64
	bool   bool
	fields []*field // kind table, in authored order
	items  []*node  // kind array
	// spelled is how the author wrote a value the schema has no use for
	// (a float, a date), for messages.
	spelled string
}

type kind int

const (
	kindNull kind = iota
	kindString
	kindInt
	kindFloat
	kindBool
	kindTable
	kindArray
	kindOther // dates and times: never valid here
	kindBad   // a value already reported (a YAML alias or tag): checked no further
)

// field is one key of a table.
type field struct {
	key    string
	keyPos Pos
	val    *node
}

func (k kind) String() string {
	switch k {
	case kindNull:
		return "null"
	case kindString:
		return "a string"
	case kindInt:
		return "an integer"
	case kindFloat:
		return "a float"
	case kindBool:
		return "a boolean"
	case kindTable:
		return "a table"
	case kindArray:
		return "an array"
	case kindBad:
		return "an invalid value"
	default:
		return "a date/time"
	}
}

// get returns the field named key, or nil.
func (n *node) get(key string) *field {
	if n == nil || n.kind != kindTable {
		return nil
	}
	for _, f := range n.fields {
		if f.key == key {
			return f
		}
	}
	return nil
}

// set adds or replaces a field; used by the TOML reader, whose document the
// go-toml decoder has already checked for redefinitions.
func (n *node) set(key string, keyPos Pos, v *node) {
	for _, f := range n.fields {
		if f.key == key {
			f.val = v
			return
		}
	}
	n.fields = append(n.fields, &field{key: key, keyPos: keyPos, val: v})
}

// at is where a problem about this field points: the value when it has a
// position of its own, else (arrays in TOML, an empty YAML value) the key.
func (f *field) at() Pos {
	if f.val != nil && f.val.kind != kindNull && f.val.pos.Line > 0 {
		return f.val.pos
	}
	return f.keyPos
}
