package discovery

import (
	"slices"
	"strings"
)

// What a FieldChange is, read from where it sits and what its two sides
// hold. The rug-pull flag (Tool.Changes) and `relavium mcp check` both get
// their changes from DiffDefinitions, so both say the same thing about the
// same change.
const (
	// ChangeReadOnlyClaimed: the definition now claims readOnlyHint true
	// and did not before (a tool that was destructive, or said nothing,
	// now says it changes nothing). Always listed first.
	ChangeReadOnlyClaimed = "read_only_claimed"
	ChangeAnnotation      = "annotation_flipped"
	ChangeDescription     = "description_changed"
	ChangeTitle           = "title_changed"
	ChangePropertyAdded   = "property_added"
	ChangePropertyRemoved = "property_removed"
	ChangeTypeChanged     = "type_changed"
	ChangeRequired        = "required_changed"
	ChangeSchema          = "schema_changed"
	ChangeOther           = "changed"
)

// changeKind classifies one change of a canonical tool definition.
func changeKind(c FieldChange) string {
	p := c.Pointer
	switch {
	case p == "/description":
		return ChangeDescription
	case p == "/title":
		return ChangeTitle
	case p == "/annotations/readOnlyHint":
		if c.New == "true" && c.Old != "true" {
			return ChangeReadOnlyClaimed
		}
		return ChangeAnnotation
	case p == "/annotations":
		if strings.Contains(c.New, `"readOnlyHint":true`) && !strings.Contains(c.Old, `"readOnlyHint":true`) {
			return ChangeReadOnlyClaimed
		}
		return ChangeAnnotation
	case strings.HasPrefix(p, "/annotations/"):
		return ChangeAnnotation
	case !strings.HasPrefix(p, "/inputSchema") && !strings.HasPrefix(p, "/outputSchema"):
		return ChangeOther
	}
	segs := strings.Split(p, "/")
	last := segs[len(segs)-1]
	parent := ""
	if len(segs) >= 2 {
		parent = segs[len(segs)-2]
	}
	switch {
	case parent == "properties" && c.Old == "":
		return ChangePropertyAdded
	case parent == "properties" && c.New == "":
		return ChangePropertyRemoved
	case last == "type":
		return ChangeTypeChanged
	case last == "required" || parent == "required":
		return ChangeRequired
	}
	return ChangeSchema
}

// rankChanges sets each change's Kind and puts a newly claimed read-only
// first (stable otherwise: pointer order).
func rankChanges(changes []FieldChange) {
	for i := range changes {
		changes[i].Kind = changeKind(changes[i])
	}
	slices.SortStableFunc(changes, func(a, b FieldChange) int {
		ac, bc := a.Kind == ChangeReadOnlyClaimed, b.Kind == ChangeReadOnlyClaimed
		switch {
		case ac && !bc:
			return -1
		case bc && !ac:
			return 1
		}
		return 0
	})
}
