package discovery

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Why this file: jsonschema-go's Schema.UnmarshalJSON decodes every nested
// schema's bytes three more times (as a bool, into the struct, into a map
// for unknown keywords), so decoding costs size × depth and was two thirds
// of discovering a large catalogue. Discovery has already parsed the schema
// into a tree, so buildSchema fills the same struct from that tree in one
// pass. It is exact or it declines: whatever it does not reproduce exactly
// (a keyword of the wrong JSON type, a null, a case variant of a keyword
// that encoding/json would match anyway, a duplicate key, an integer
// keyword that is not a plain integer) makes it report false, and
// compileSchema decodes the canonical bytes with json.Unmarshal as before.
// TestBuildSchemaMatchesUnmarshal and FuzzBuildSchema hold it to
// reflect.DeepEqual with the library's own decode.

// schemaKeywords is every JSON member name Schema.UnmarshalJSON decodes
// into a field; any other member lands in Extra.
// TestSchemaKeywordsCoverTheLibrary checks it against the struct's tags.
var schemaKeywords = map[string]bool{
	"$id": true, "$schema": true, "$ref": true, "$comment": true, "$defs": true, "definitions": true,
	"$anchor": true, "$dynamicAnchor": true, "$dynamicRef": true, "$vocabulary": true,
	"title": true, "description": true, "default": true, "deprecated": true, "readOnly": true,
	"writeOnly": true, "examples": true, "type": true, "enum": true, "const": true,
	"multipleOf": true, "minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"minLength": true, "maxLength": true, "pattern": true,
	"prefixItems": true, "items": true, "minItems": true, "maxItems": true, "additionalItems": true,
	"uniqueItems": true, "contains": true, "minContains": true, "maxContains": true, "unevaluatedItems": true,
	"minProperties": true, "maxProperties": true, "required": true, "dependentRequired": true,
	"properties": true, "patternProperties": true, "additionalProperties": true, "propertyNames": true,
	"unevaluatedProperties": true, "allOf": true, "anyOf": true, "oneOf": true, "not": true,
	"if": true, "then": true, "else": true, "dependentSchemas": true, "dependencies": true,
	"contentEncoding": true, "contentMediaType": true, "contentSchema": true, "format": true,
}

// buildSchema returns the Schema json.Unmarshal would decode from
// appendCanonical(n), or false when it cannot promise that.
func buildSchema(n *node) (*jsonschema.Schema, bool) {
	switch n.kind {
	case kBool:
		if n.b {
			return &jsonschema.Schema{}, true
		}
		return &jsonschema.Schema{Not: &jsonschema.Schema{}}, true
	case kObject:
	default:
		return nil, false
	}
	s := &jsonschema.Schema{}
	seen := make(map[string]bool, len(n.obj))
	for _, m := range n.obj {
		if seen[m.key] {
			return nil, false
		}
		seen[m.key] = true
		if !schemaKeywords[m.key] {
			if foldsToKeyword(m.key) {
				return nil, false
			}
			v, ok := anyValue(m.val)
			if !ok {
				return nil, false
			}
			if s.Extra == nil {
				s.Extra = map[string]any{}
			}
			s.Extra[m.key] = v
			continue
		}
		if !setKeyword(s, m.key, m.val) {
			return nil, false
		}
	}
	return s, true
}

// setKeyword decodes one keyword into its field, or reports false.
func setKeyword(s *jsonschema.Schema, key string, v *node) bool {
	str := func(dst *string) bool {
		if v.kind != kString {
			return false
		}
		*dst = v.str
		return true
	}
	flag := func(dst *bool) bool {
		if v.kind != kBool {
			return false
		}
		*dst = v.b
		return true
	}
	num := func(dst **float64) bool {
		f, ok := floatValue(v)
		if ok {
			*dst = &f
		}
		return ok
	}
	integer := func(dst **int) bool {
		i, ok := intValue(v)
		if ok {
			*dst = &i
		}
		return ok
	}
	sub := func(dst **jsonschema.Schema) bool {
		c, ok := buildSchema(v)
		if ok {
			*dst = c
		}
		return ok
	}
	list := func(dst *[]*jsonschema.Schema) bool {
		c, ok := schemaList(v)
		if ok {
			*dst = c
		}
		return ok
	}
	table := func(dst *map[string]*jsonschema.Schema) bool {
		c, ok := schemaMap(v)
		if ok {
			*dst = c
		}
		return ok
	}
	anys := func(dst *[]any) bool {
		if v.kind != kArray {
			return false
		}
		out := make([]any, 0, len(v.arr))
		for _, e := range v.arr {
			a, ok := anyValue(e)
			if !ok {
				return false
			}
			out = append(out, a)
		}
		*dst = out
		return true
	}

	switch key {
	case "$id":
		return str(&s.ID)
	case "$schema":
		return str(&s.Schema)
	case "$ref":
		return str(&s.Ref)
	case "$comment":
		return str(&s.Comment)
	case "$anchor":
		return str(&s.Anchor)
	case "$dynamicAnchor":
		return str(&s.DynamicAnchor)
	case "$dynamicRef":
		return str(&s.DynamicRef)
	case "title":
		return str(&s.Title)
	case "description":
		return str(&s.Description)
	case "pattern":
		return str(&s.Pattern)
	case "contentEncoding":
		return str(&s.ContentEncoding)
	case "contentMediaType":
		return str(&s.ContentMediaType)
	case "format":
		return str(&s.Format)
	case "deprecated":
		return flag(&s.Deprecated)
	case "readOnly":
		return flag(&s.ReadOnly)
	case "writeOnly":
		return flag(&s.WriteOnly)
	case "uniqueItems":
		return flag(&s.UniqueItems)
	case "multipleOf":
		return num(&s.MultipleOf)
	case "minimum":
		return num(&s.Minimum)
	case "maximum":
		return num(&s.Maximum)
	case "exclusiveMinimum":
		return num(&s.ExclusiveMinimum)
	case "exclusiveMaximum":
		return num(&s.ExclusiveMaximum)
	case "minLength":
		return integer(&s.MinLength)
	case "maxLength":
		return integer(&s.MaxLength)
	case "minItems":
		return integer(&s.MinItems)
	case "maxItems":
		return integer(&s.MaxItems)
	case "minContains":
		return integer(&s.MinContains)
	case "maxContains":
		return integer(&s.MaxContains)
	case "minProperties":
		return integer(&s.MinProperties)
	case "maxProperties":
		return integer(&s.MaxProperties)
	case "additionalItems":
		return sub(&s.AdditionalItems)
	case "contains":
		return sub(&s.Contains)
	case "unevaluatedItems":
		return sub(&s.UnevaluatedItems)
	case "additionalProperties":
		return sub(&s.AdditionalProperties)
	case "propertyNames":
		return sub(&s.PropertyNames)
	case "unevaluatedProperties":
		return sub(&s.UnevaluatedProperties)
	case "not":
		return sub(&s.Not)
	case "if":
		return sub(&s.If)
	case "then":
		return sub(&s.Then)
	case "else":
		return sub(&s.Else)
	case "contentSchema":
		return sub(&s.ContentSchema)
	case "prefixItems":
		return list(&s.PrefixItems)
	case "allOf":
		return list(&s.AllOf)
	case "anyOf":
		return list(&s.AnyOf)
	case "oneOf":
		return list(&s.OneOf)
	case "$defs":
		return table(&s.Defs)
	case "definitions":
		return table(&s.Definitions)
	case "properties":
		return table(&s.Properties)
	case "patternProperties":
		return table(&s.PatternProperties)
	case "dependentSchemas":
		return table(&s.DependentSchemas)
	case "examples":
		return anys(&s.Examples)
	case "enum":
		return anys(&s.Enum)
	case "default":
		if v.kind == kNull {
			return false // left to json.Unmarshal
		}
		s.Default = json.RawMessage(appendCanonical(nil, v))
		return true
	case "const":
		a, ok := anyValue(v)
		if ok {
			s.Const = &a
		}
		return ok
	case "type":
		switch v.kind {
		case kString:
			s.Type = v.str
			return true
		case kArray:
			ts, ok := stringList(v)
			s.Types = ts
			return ok
		}
		return false
	case "items":
		switch v.kind {
		case kArray:
			return list(&s.ItemsArray)
		case kObject, kBool:
			return sub(&s.Items)
		}
		return false
	case "required":
		ts, ok := stringList(v)
		s.Required = ts
		return ok
	case "dependentRequired":
		m, ok := stringListMap(v)
		s.DependentRequired = m
		return ok
	case "$vocabulary":
		if v.kind != kObject {
			return false
		}
		out := make(map[string]bool, len(v.obj))
		for _, m := range v.obj {
			if _, dup := out[m.key]; dup || m.val.kind != kBool {
				return false
			}
			out[m.key] = m.val.b
		}
		s.Vocabulary = out
		return true
	case "dependencies":
		if v.kind != kObject {
			return false
		}
		seen := make(map[string]bool, len(v.obj))
		for _, m := range v.obj {
			if seen[m.key] {
				return false
			}
			seen[m.key] = true
			switch m.val.kind {
			case kArray:
				ts, ok := stringList(m.val)
				if !ok {
					return false
				}
				if s.DependencyStrings == nil {
					s.DependencyStrings = map[string][]string{}
				}
				s.DependencyStrings[m.key] = ts
			case kObject, kBool:
				c, ok := buildSchema(m.val)
				if !ok {
					return false
				}
				if s.DependencySchemas == nil {
					s.DependencySchemas = map[string]*jsonschema.Schema{}
				}
				s.DependencySchemas[m.key] = c
			default:
				return false
			}
		}
		return true
	}
	return false
}

// foldsToKeyword reports a member name encoding/json would still match to
// a keyword's field (it matches case-insensitively), which the library then
// also keeps in Extra; buildSchema leaves such a schema to json.Unmarshal.
func foldsToKeyword(key string) bool {
	for k := range schemaKeywords {
		if strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

func schemaList(v *node) ([]*jsonschema.Schema, bool) {
	if v.kind != kArray {
		return nil, false
	}
	out := make([]*jsonschema.Schema, 0, len(v.arr))
	for _, e := range v.arr {
		c, ok := buildSchema(e)
		if !ok {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

func schemaMap(v *node) (map[string]*jsonschema.Schema, bool) {
	if v.kind != kObject {
		return nil, false
	}
	out := make(map[string]*jsonschema.Schema, len(v.obj))
	for _, m := range v.obj {
		if _, dup := out[m.key]; dup {
			return nil, false
		}
		c, ok := buildSchema(m.val)
		if !ok {
			return nil, false
		}
		out[m.key] = c
	}
	return out, true
}

func stringList(v *node) ([]string, bool) {
	if v.kind != kArray {
		return nil, false
	}
	out := make([]string, 0, len(v.arr))
	for _, e := range v.arr {
		if e.kind != kString {
			return nil, false
		}
		out = append(out, e.str)
	}
	return out, true
}

func stringListMap(v *node) (map[string][]string, bool) {
	if v.kind != kObject {
		return nil, false
	}
	out := make(map[string][]string, len(v.obj))
	for _, m := range v.obj {
		if _, dup := out[m.key]; dup {
			return nil, false
		}
		ts, ok := stringList(m.val)
		if !ok {
			return nil, false
		}
		out[m.key] = ts
	}
	return out, true
}

// anyValue is the value encoding/json decodes into an interface{}.
func anyValue(v *node) (any, bool) {
	switch v.kind {
	case kNull:
		return nil, true
	case kBool:
		return v.b, true
	case kString:
		return v.str, true
	case kNumber:
		return floatValue(v)
	case kArray:
		out := make([]any, 0, len(v.arr))
		for _, e := range v.arr {
			a, ok := anyValue(e)
			if !ok {
				return nil, false
			}
			out = append(out, a)
		}
		return out, true
	case kObject:
		out := make(map[string]any, len(v.obj))
		for _, m := range v.obj {
			if _, dup := out[m.key]; dup {
				return nil, false
			}
			a, ok := anyValue(m.val)
			if !ok {
				return nil, false
			}
			out[m.key] = a
		}
		return out, true
	}
	return nil, false
}

// floatValue is the float64 of the number as the canonical bytes spell it.
func floatValue(v *node) (float64, bool) {
	if v.kind != kNumber {
		return 0, false
	}
	var buf [32]byte
	f, err := strconv.ParseFloat(string(appendNumber(buf[:0], v.str)), 64)
	return f, err == nil
}

// intValue accepts what the library's integer keywords accept from
// canonical bytes, limited to plain integer spellings: a fraction or an
// exponent is left to json.Unmarshal.
func intValue(v *node) (int, bool) {
	if v.kind != kNumber {
		return 0, false
	}
	var buf [32]byte
	txt := string(appendNumber(buf[:0], v.str))
	if strings.ContainsAny(txt, ".eE") {
		return 0, false
	}
	i, err := strconv.ParseInt(txt, 10, 64)
	if err != nil || i < math.MinInt32 || i > math.MaxInt32 {
		return 0, false
	}
	return int(i), true
}
