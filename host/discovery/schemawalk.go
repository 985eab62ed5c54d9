package discovery

import (
	"strconv"
	"strings"

	"github.com/relavium/relavium/engine/sanitize"
)

// Bounds from docs/mcp-integration.md "Discovery and result ingress bounds",
// in UTF-8 bytes (schemas as canonical JSON).
const (
	MaxToolsPerServer = 256
	MaxDescription    = 8 << 10
	MaxPayload        = 1 << 20
	MaxLiteral        = 4 << 10
	MaxPropertyName   = 256
	MaxToolName       = 128 // MCP: names SHOULD be 1–128 characters of [A-Za-z0-9_.-]
	// MaxSchemaObjects bounds the schema objects (subschemas) a server's
	// admitted tools may hold together: each becomes a compiled validator
	// node of about a kilobyte kept for the session, so the 1 MiB byte
	// budget alone (a subschema can be 7 bytes) would allow ~150 MB.
	MaxSchemaObjects = 16384
	// DefaultMaxSchemaDepth caps JSON nesting inside one schema (the root
	// object is depth 1). 32 levels is about 15 levels of nested objects.
	DefaultMaxSchemaDepth = 32
)

// Keywords whose value is one subschema.
var singleSchemaKeywords = map[string]bool{
	"additionalProperties": true, "additionalItems": true, "unevaluatedItems": true,
	"unevaluatedProperties": true, "propertyNames": true, "contains": true,
	"not": true, "if": true, "then": true, "else": true, "contentSchema": true,
}

// Keywords whose value is an array of subschemas.
var schemaArrayKeywords = map[string]bool{"prefixItems": true, "allOf": true, "anyOf": true, "oneOf": true}

// Keywords whose value maps names to subschemas.
var schemaMapKeywords = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}

// Keywords outside the supported subset (dynamic scope or vocabularies).
var unsupportedKeywords = map[string]bool{
	"$dynamicRef": true, "$dynamicAnchor": true, "$recursiveRef": true, "$recursiveAnchor": true, "$vocabulary": true,
}

// Supported $schema values (jsonschema-go: draft 2020-12 and draft-07).
var supportedDrafts = map[string]bool{
	"https://json-schema.org/draft/2020-12/schema": true,
	"http://json-schema.org/draft-07/schema#":      true,
	"https://json-schema.org/draft-07/schema#":     true,
}

// knownKeywords are the keywords jsonschema-go reads (it matches them
// case-insensitively, like encoding/json does struct fields).
var knownKeywords = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{
		"$id", "$schema", "$ref", "$comment", "$defs", "definitions", "$anchor", "$dynamicAnchor", "$dynamicRef", "$vocabulary",
		"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
		"type", "enum", "const", "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
		"minLength", "maxLength", "pattern", "prefixItems", "items", "minItems", "maxItems", "additionalItems",
		"uniqueItems", "contains", "minContains", "maxContains", "unevaluatedItems", "minProperties", "maxProperties",
		"required", "dependentRequired", "properties", "patternProperties", "additionalProperties", "propertyNames",
		"unevaluatedProperties", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas",
		"dependencies", "contentEncoding", "contentMediaType", "contentSchema", "format",
	} {
		m[strings.ToLower(k)] = k
	}
	return m
}()

// schemaWalk checks one schema (inputSchema or outputSchema) in declaration
// order, sanitizes its presentation keywords in place and records what the
// reference-cycle check needs. The first problem found is the one reported.
type schemaWalk struct {
	field    string // "inputSchema" or "outputSchema"
	maxDepth int
	schemas  []*node          // every schema object, in walk order
	refs     map[*node]string // schema object -> its local $ref
	anchors  map[string]*node
}

func newSchemaWalk(field string, maxDepth int) *schemaWalk {
	return &schemaWalk{field: field, maxDepth: maxDepth, refs: map[*node]string{}, anchors: map[string]*node{}}
}

func (w *schemaWalk) at(ptr string) string { return w.field + ptr }

// schema walks a subschema at ptr, nested depth containers deep.
func (w *schemaWalk) schema(n *node, ptr string, depth int, root bool) *skip {
	if n.kind == kTooDeep || depth > w.maxDepth {
		return skipf(ReasonSchemaTooDeep, "%s nests deeper than %d levels", w.at(ptr), w.maxDepth)
	}
	if n.kind != kObject {
		return nil // booleans are schemas; other kinds are left to the compiler
	}
	w.schemas = append(w.schemas, n)
	if sk := checkKeys(n, ptr, w.field, true); sk != nil {
		return sk
	}
	for i := range n.obj {
		m := &n.obj[i]
		if sk := w.key(m, ptr, MaxPropertyName); sk != nil {
			return sk
		}
		if canon, ok := knownKeywords[strings.ToLower(m.key)]; ok && canon != m.key {
			return skipf(ReasonCaseVariantKey, "%s: key %s is keyword %s in another case; jsonschema-go would apply it, a case-sensitive reader would not", w.at(ptr), show(m.key), show(canon))
		}
		if sk := w.keyword(n, m, ptr+"/"+token(m.key), depth, root); sk != nil {
			return sk
		}
	}
	return nil
}

// keyword judges one keyword m of schema n, at kp: one case a keyword
// family, the larger ones in helpers of their own.
func (w *schemaWalk) keyword(n *node, m *member, kp string, depth int, root bool) *skip {
	v := m.val
	switch k := m.key; {
	case k == "description" || k == "title":
		return w.annotation(k, v, kp)
	case schemaMapKeywords[k]:
		limit := MaxPropertyName
		if k == "patternProperties" {
			limit = MaxLiteral // its keys are regular expressions
		}
		return w.schemaMap(v, kp, depth, limit)
	case schemaArrayKeywords[k] || (k == "items" && v.kind == kArray):
		if v.kind != kArray {
			return nil
		}
		for j, e := range v.arr {
			if sk := w.schema(e, kp+"/"+strconv.Itoa(j), depth+2, false); sk != nil {
				return sk
			}
		}
	case singleSchemaKeywords[k] || k == "items":
		return w.schema(v, kp, depth+1, false)
	case k == "dependencies":
		return w.dependencies(v, kp, depth)
	case unsupportedKeywords[k]:
		return skipf(ReasonSchemaUnsupported, "%s: %s is outside the supported subset", w.at(kp), show(k))
	case k == "$schema" || k == "$id":
		return w.identity(k, v, kp, depth, root)
	case k == "$ref":
		if sk := w.data(v, kp, depth+1); sk != nil {
			return sk
		}
		if v.kind != kString {
			return nil
		}
		if !strings.HasPrefix(v.str, "#") {
			return skipf(ReasonSchemaRemoteRef, "%s is %s; only local \"#...\" references are followed, nothing is fetched", w.at(kp), show(v.str))
		}
		w.refs[n] = v.str
	case k == "$anchor":
		if sk := w.data(v, kp, depth+1); sk != nil {
			return sk
		}
		if v.kind == kString {
			w.anchors[v.str] = n
		}
	case k == "enum":
		return w.enum(v, kp, depth)
	default:
		// const, default, examples, required, type, pattern, format,
		// $comment, unknown keywords: data, every string semantic.
		return w.data(v, kp, depth+1)
	}
	return nil
}

// annotation bounds and cleans a description or title (a non-string one
// is left to the compiler, which refuses it).
func (w *schemaWalk) annotation(k string, v *node, kp string) *skip {
	if v.kind != kString {
		return nil
	}
	if len(v.str) > MaxLiteral {
		return skipf(ReasonLiteralTooLarge, "%s is %d bytes, bound %d", w.at(kp), len(v.str), MaxLiteral)
	}
	if k == "title" {
		v.str = sanitize.Line(v.str)
	} else {
		v.str = sanitize.Text(v.str)
	}
	return nil
}

// schemaMap walks a name → schema keyword (properties, patternProperties,
// $defs …), its keys bounded by limit.
func (w *schemaWalk) schemaMap(v *node, kp string, depth, limit int) *skip {
	return w.members(v, kp, limit, func(sub *member, sp string) *skip {
		return w.schema(sub.val, sp, depth+2, false)
	})
}

// dependencies walks draft-07's dependencies: name → schema or string array.
func (w *schemaWalk) dependencies(v *node, kp string, depth int) *skip {
	return w.members(v, kp, MaxPropertyName, func(sub *member, sp string) *skip {
		if sub.val.kind == kArray {
			return w.data(sub.val, sp, depth+2)
		}
		return w.schema(sub.val, sp, depth+2, false)
	})
}

// members checks the keys of a name → value keyword at kp (duplicates,
// case variants, each key a semantic string within limit) and judges each
// member's value at its pointer; a keyword that is not an object is left
// to the compiler.
func (w *schemaWalk) members(v *node, kp string, limit int, each func(sub *member, sp string) *skip) *skip {
	if v.kind != kObject {
		return nil
	}
	if sk := checkKeys(v, kp, w.field, false); sk != nil {
		return sk
	}
	for j := range v.obj {
		sub := &v.obj[j]
		if sk := w.key(sub, kp, limit); sk != nil {
			return sk
		}
		if sk := each(sub, kp+"/"+token(sub.key)); sk != nil {
			return sk
		}
	}
	return nil
}

// identity judges $schema and $id: only at the root, and $schema naming a
// supported draft.
func (w *schemaWalk) identity(k string, v *node, kp string, depth int, root bool) *skip {
	if sk := w.data(v, kp, depth+1); sk != nil {
		return sk
	}
	if !root {
		return skipf(ReasonSchemaUnsupported, "%s: an embedded %s is outside the supported subset", w.at(kp), k)
	}
	if k == "$schema" && (v.kind != kString || !supportedDrafts[v.str]) {
		return skipf(ReasonSchemaDraftUnsupported, "%s is %s; supported: draft 2020-12 and draft-07", w.at(kp), show(v.str))
	}
	return nil
}

// enum bounds each member of an enum and walks it as data.
func (w *schemaWalk) enum(v *node, kp string, depth int) *skip {
	if v.kind != kArray {
		return nil
	}
	for j, e := range v.arr {
		ep := kp + "/" + strconv.Itoa(j)
		size := canonicalLen(e)
		if e.kind == kString {
			size = len(e.str)
		}
		if size > MaxLiteral {
			return skipf(ReasonEnumMemberTooLarge, "%s is %d bytes, bound %d", w.at(ep), size, MaxLiteral)
		}
		if sk := w.data(e, ep, depth+2); sk != nil {
			return sk
		}
	}
	return nil
}

// key checks one object key: a semantic string within its size bound.
func (w *schemaWalk) key(m *member, ptr string, limit int) *skip {
	if len(m.key) <= limit && !m.keyBad && sanitize.Check(m.key) == nil {
		return nil // the common case: no detail to render
	}
	where := w.at(ptr) + " key " + show(m.key)
	if len(m.key) > limit {
		code := ReasonPropertyNameTooLarge
		if limit == MaxLiteral {
			code = ReasonLiteralTooLarge
		}
		return skipf(code, "%s is %d bytes, bound %d", where, len(m.key), limit)
	}
	return semanticSkip(m.key, m.keyBad, where)
}

// token is pointerToken without its cost for the common plain key: one
// of printable ASCII but for the characters pointerToken escapes, short
// enough not to be truncated, is its own display form.
func token(s string) string {
	if len(s) > maxShown {
		return pointerToken(s)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '~' || c == '/' || c == '"' || c == '\\' {
			return pointerToken(s)
		}
	}
	return s
}

// data walks a value that is instance data or a keyword argument: every
// string and key is semantic; no key may repeat.
func (w *schemaWalk) data(n *node, ptr string, depth int) *skip {
	switch n.kind {
	case kTooDeep:
		return skipf(ReasonSchemaTooDeep, "%s nests deeper than %d levels", w.at(ptr), w.maxDepth)
	case kString:
		if len(n.str) > MaxLiteral {
			return skipf(ReasonLiteralTooLarge, "%s is %d bytes, bound %d", w.at(ptr), len(n.str), MaxLiteral)
		}
		return semanticSkip(n.str, n.bad, w.at(ptr))
	case kNumber:
		if !numberInRange(n.str) {
			return skipf(ReasonSchemaUnsupported, "%s is the number %s, beyond what a float64 (and so JSON.parse or the validator) can hold", w.at(ptr), show(n.str))
		}
		return nil
	case kObject, kArray:
		if depth > w.maxDepth {
			return skipf(ReasonSchemaTooDeep, "%s nests deeper than %d levels", w.at(ptr), w.maxDepth)
		}
	}
	if n.kind == kArray {
		for j, e := range n.arr {
			if sk := w.data(e, ptr+"/"+strconv.Itoa(j), depth+1); sk != nil {
				return sk
			}
		}
		return nil
	}
	if n.kind != kObject {
		return nil
	}
	if sk := checkKeys(n, ptr, w.field, false); sk != nil {
		return sk
	}
	for i := range n.obj {
		m := &n.obj[i]
		if sk := w.key(m, ptr, MaxPropertyName); sk != nil {
			return sk
		}
		if sk := w.data(m.val, ptr+"/"+token(m.key), depth+1); sk != nil {
			return sk
		}
	}
	return nil
}

// checkKeys refuses an object that repeats a key. With fold, keys that
// differ only in case are refused too: a reader that matches keys
// case-insensitively (encoding/json into a struct, as the SDK and
// jsonschema-go do) would see a different value than one that does not.
// Name maps (properties, $defs, ...) and instance data are compared
// exactly: there "id" and "ID" are two distinct, legitimate names.
func checkKeys(n *node, ptr, field string, fold bool) *skip {
	if len(n.obj) < 2 {
		return nil
	}
	if len(n.obj) <= 8 {
		for i := 1; i < len(n.obj); i++ {
			for j := 0; j < i; j++ {
				if sk := compareKeys(n.obj[j].key, n.obj[i].key, ptr, field, fold); sk != nil {
					return sk
				}
			}
		}
		return nil
	}
	seen := make(map[string]string, len(n.obj))
	for _, m := range n.obj {
		k := m.key
		if fold {
			k = strings.ToLower(k)
		}
		if prev, ok := seen[k]; ok {
			return compareKeys(prev, m.key, ptr, field, fold)
		}
		seen[k] = m.key
	}
	return nil
}

func compareKeys(a, b, ptr, field string, fold bool) *skip {
	where := field + ptr
	if where == "" {
		where = "the tool object"
	}
	switch {
	case a == b:
		return skipf(ReasonDuplicateKey, "%s repeats key %s", where, show(b))
	case fold && strings.EqualFold(a, b):
		return skipf(ReasonCaseVariantKey, "%s has keys %s and %s that differ only in case", where, show(a), show(b))
	}
	return nil
}

// numberInRange reports whether the JSON number literal lit is finite as a
// float64. Without an exponent, a literal of up to 308 digits always is.
func numberInRange(lit string) bool {
	if len(lit) <= 308 && !strings.ContainsAny(lit, "eE") {
		return true
	}
	_, err := strconv.ParseFloat(lit, 64)
	return err == nil
}
