package discovery

import (
	"sort"
	"strconv"
)

// FieldChange is one difference between a pinned definition and the one
// seen now, located by a JSON pointer into the canonical definition
// (e.g. /description, /inputSchema/properties/path/type). Old and New are
// canonical JSON, display-safe and truncated; "" means absent.
type FieldChange struct {
	Pointer string `json:"pointer"`
	Old     string `json:"old,omitempty"`
	New     string `json:"new,omitempty"`
	// Kind says what the change is (Change*: a description, a property
	// added, a type, required, an annotation; a newly claimed read-only
	// comes first).
	Kind string `json:"kind,omitempty"`
}

const (
	maxChanges     = 64
	maxChangeValue = 240
)

// DiffDefinitions compares two canonical definitions. It is the one
// comparison of tool definitions: the rug-pull flag at connect (PinStore)
// and `relavium mcp check` (package lock) both report what it finds.
func DiffDefinitions(oldDef, newDef []byte) []FieldChange {
	a, errA := parseJSON(oldDef)
	b, errB := parseJSON(newDef)
	if errA != nil || errB != nil {
		return []FieldChange{{Pointer: "", Old: clip(oldDef), New: clip(newDef), Kind: ChangeOther}}
	}
	var out []FieldChange
	diffNodes(a, b, "", &out)
	rankChanges(out)
	return out
}

func diffNodes(a, b *node, ptr string, out *[]FieldChange) {
	if len(*out) >= maxChanges {
		return
	}
	if a == nil || b == nil || a.kind != b.kind || (a.kind != kObject && a.kind != kArray) {
		if a != nil && b != nil && string(appendCanonical(nil, a)) == string(appendCanonical(nil, b)) {
			return
		}
		*out = append(*out, FieldChange{Pointer: ptr, Old: render(a), New: render(b)})
		return
	}
	if a.kind == kArray {
		if len(a.arr) != len(b.arr) {
			*out = append(*out, FieldChange{Pointer: ptr, Old: render(a), New: render(b)})
			return
		}
		for i := range a.arr {
			diffNodes(a.arr[i], b.arr[i], ptr+"/"+strconv.Itoa(i), out)
		}
		return
	}
	keys := map[string]bool{}
	for _, m := range a.obj {
		keys[m.key] = true
	}
	for _, m := range b.obj {
		keys[m.key] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		diffNodes(a.get(k), b.get(k), ptr+"/"+pointerToken(k), out)
	}
}

func render(n *node) string {
	if n == nil {
		return ""
	}
	return clip(appendCanonical(nil, n))
}

func clip(b []byte) string {
	return escapeText(string(b), maxChangeValue, false)
}
