package discovery

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
)

// Tool is one admitted tool: the definition the registry, the TUI and a
// model see (sanitized, bounded; Def.Name is set by Namespace; Def.Fields
// are its input fields in the order the server declared them, for every
// surface that asks a person for arguments) and its compiled input
// validator.
type Tool struct {
	Def engine.ToolDef
	// Size is what the tool counted against the server's 1 MiB budget:
	// name, title and description bytes plus canonical schema bytes.
	Size int
	// Changes lists how the definition differs from the one pinned on an
	// earlier connect (set with Def.Changed by PinStore.Observe).
	Changes []FieldChange

	canonical []byte // canonical sanitized definition (pinned)
	input     *jsonschema.Resolved
	inputSrc  []byte // canonical source the validator was compiled from
	draft     string // the root $schema, if any
	// schemaObjects counts the schema objects of both schemas (what the
	// compiled validators cost), against MaxSchemaObjects.
	schemaObjects int

	locMu sync.Mutex
	loc   map[string]*jsonschema.Resolved // schema pointer -> validator (argument error locator)
}

// Canonical returns the canonical JSON of the tool's sanitized definition
// (what pins hash).
func (t *Tool) Canonical() []byte { return t.canonical }

// buildTool checks one entry of a tools/list page. name is the tool's
// display-safe name for a SkippedTool row (a placeholder when it has
// none); key is the raw name for duplicate detection ("" when invalid).
func buildTool(server string, index int, n *node, allow, deny map[string]bool, maxDepth int, cc *compileCache) (t *Tool, name, key string, sk *skip) {
	name = "#" + strconv.Itoa(index)
	if n.kind != kObject {
		return nil, name, "", skipf(ReasonInvalidTool, "tools[%d] is not an object", index)
	}
	if nn := n.get("name"); nn != nil && nn.kind == kString {
		name = displayName(nn.str)
	}
	if sk := checkKeys(n, "", "", true); sk != nil {
		return nil, name, "", sk
	}
	if sk := checkFieldCase(n, toolFields, "the tool object"); sk != nil {
		return nil, name, "", sk
	}
	nn := n.get("name")
	if nn == nil || nn.kind != kString {
		return nil, name, "", skipf(ReasonInvalidName, "tools[%d] has no string name", index)
	}
	if sk := semanticSkip(nn.str, nn.bad, "name"); sk != nil {
		return nil, name, "", sk
	}
	if sk := checkName(nn.str); sk != nil {
		return nil, name, "", sk
	}
	raw := nn.str
	if deny[raw] {
		return nil, name, raw, skipf(ReasonInDenylist, "tool %s is in the server's tools_denylist", show(raw))
	}
	if allow != nil && !allow[raw] {
		return nil, name, raw, skipf(ReasonNotInAllowlist, "tool %s is not in the server's tools_allowlist", show(raw))
	}

	def := engine.ToolDef{ID: engine.ToolID(server + "\x1f" + raw), Server: server, Tool: raw}
	size, sk := readTexts(n, &def)
	if sk != nil {
		return nil, name, raw, sk
	}
	tool := &Tool{}
	in, inSize, sk := readInput(n, tool, &def, maxDepth, cc)
	if sk != nil {
		return nil, name, raw, sk
	}
	out, outSize, sk := readOutput(n, tool, &def, maxDepth, cc)
	if sk != nil {
		return nil, name, raw, sk
	}
	tool.Def = def
	tool.Size = len(raw) + size + inSize + outSize
	tool.canonical = canonicalDefinition(def, in, out)
	return tool, name, raw, nil
}

// readTexts reads the tool's title, description and annotations into def,
// each bounded and cleaned, and returns the bytes they count.
func readTexts(n *node, def *engine.ToolDef) (size int, sk *skip) {
	if v := n.get("title"); v != nil {
		if v.kind != kString {
			return 0, skipf(ReasonInvalidTool, "title is not a string")
		}
		if len(v.str) > MaxDescription {
			return 0, skipf(ReasonTitleTooLarge, "title is %d bytes, bound %d", len(v.str), MaxDescription)
		}
		size += len(v.str)
		def.Title = sanitize.Line(v.str)
	}
	if v := n.get("description"); v != nil {
		if v.kind != kString {
			return 0, skipf(ReasonInvalidTool, "description is not a string")
		}
		if len(v.str) > MaxDescription {
			return 0, skipf(ReasonDescriptionTooLarge, "description is %d bytes, bound %d", len(v.str), MaxDescription)
		}
		size += len(v.str)
		def.Description = sanitize.Text(v.str)
	}
	ann, annTitle, sk := readAnnotations(n.get("annotations"))
	if sk != nil {
		return 0, sk
	}
	size += len(annTitle)
	def.Annotations = ann
	if def.Title == "" && annTitle != "" {
		def.Title = sanitize.Line(annTitle)
	}
	return size, nil
}

// readInput checks and compiles the required inputSchema: it is the
// validator every call goes through, and the fields every surface asks a
// person for (read once here).
func readInput(n *node, tool *Tool, def *engine.ToolDef, maxDepth int, cc *compileCache) (in *node, size int, sk *skip) {
	in = n.get("inputSchema")
	if in == nil || in.kind != kObject {
		return nil, 0, skipf(ReasonSchemaNotObject, "inputSchema is missing or not a JSON object")
	}
	size = canonicalLen(in)
	objects, sk := checkSchema(in, "inputSchema", maxDepth)
	if sk != nil {
		return nil, 0, sk
	}
	if sk := schemaObjectsSkip(objects); sk != nil {
		return nil, 0, sk
	}
	rs, src, sk := cc.compile(in, "inputSchema", objects)
	if sk != nil {
		return nil, 0, sk
	}
	tool.input, tool.inputSrc = rs, src
	if d := in.get("$schema"); d != nil {
		tool.draft = d.str
	}
	tool.schemaObjects = objects
	def.InputSchema = appendOrdered(nil, in)
	def.Fields = readFields(in)
	return in, size, nil
}

// readOutput checks and compiles the optional outputSchema, its schema
// objects counted with the input's against the cap.
func readOutput(n *node, tool *Tool, def *engine.ToolDef, maxDepth int, cc *compileCache) (out *node, size int, sk *skip) {
	out = n.get("outputSchema")
	if out == nil || out.kind == kNull {
		return out, 0, nil
	}
	if out.kind != kObject {
		return nil, 0, skipf(ReasonSchemaNotObject, "outputSchema is not a JSON object")
	}
	size = canonicalLen(out)
	more, sk := checkSchema(out, "outputSchema", maxDepth)
	if sk != nil {
		return nil, 0, sk
	}
	tool.schemaObjects += more
	if sk := schemaObjectsSkip(tool.schemaObjects); sk != nil {
		return nil, 0, sk
	}
	if _, _, sk := cc.compile(out, "outputSchema", more); sk != nil {
		return nil, 0, sk
	}
	def.OutputSchema = appendOrdered(nil, out)
	return out, size, nil
}

// Field names of the tool object and its annotations as MCP spells them.
var (
	toolFields       = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta", "icons", "execution"}
	annotationFields = []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
)

// checkFieldCase refuses a key that is a known field in another case: the
// SDK (encoding/json into a struct) would read it as that field, a
// case-sensitive reader would not.
func checkFieldCase(n *node, fields []string, where string) *skip {
	for _, m := range n.obj {
		for _, f := range fields {
			if m.key != f && strings.EqualFold(m.key, f) {
				return skipf(ReasonCaseVariantKey, "%s: key %s is field %s in another case", where, show(m.key), show(f))
			}
		}
	}
	return nil
}

// checkSchema runs the walk, the root checks and the cycle check, and
// counts the schema's schema objects.
func checkSchema(root *node, field string, maxDepth int) (int, *skip) {
	w := newSchemaWalk(field, maxDepth)
	if sk := w.schema(root, "", 1, true); sk != nil {
		return 0, sk
	}
	if !rootIsObjectType(root) {
		return 0, skipf(ReasonSchemaNotObject, "%s: the root type must be \"object\"", field)
	}
	return len(w.schemas), w.refCycle(root)
}

// schemaObjectsSkip refuses, before it is compiled, a tool whose schemas
// alone hold more schema objects than a whole server may.
func schemaObjectsSkip(n int) *skip {
	if n > MaxSchemaObjects {
		return skipf(ReasonToolTooLarge, "the tool's schemas hold %d schema objects, over the server's whole budget of %d", n, MaxSchemaObjects)
	}
	return nil
}

// checkName applies the MCP naming rule: 1–128 bytes of [A-Za-z0-9_.-].
// The rule is a SHOULD in the MCP spec; relavium enforces it because the
// name is semantic (the wire name of every call), becomes part of
// mcp_{server}_{tool} in CLI arguments and model tool specs, and anything
// looser (spaces, slashes, look-alike letters) invites confusion between
// tools that a person or a model cannot see.
func checkName(s string) *skip {
	if s == "" || len(s) > MaxToolName {
		return skipf(ReasonInvalidName, "name is %d bytes; must be 1–%d", len(s), MaxToolName)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			_, size := utf8.DecodeRuneInString(s[i:])
			return skipf(ReasonInvalidName, "name %s has %s at byte %d; allowed: A-Z a-z 0-9 _ . -", show(s), show(s[i:i+size]), i)
		}
	}
	return nil
}

// readAnnotations reads the advisory hints. They are untrusted: a hint of
// the wrong type is dropped (nil = the server did not say), and a tool
// claiming to be both read-only and destructive is taken as destructive.
// Keys are checked like the tool object's (the SDK folds case).
func readAnnotations(n *node) (engine.Annotations, string, *skip) {
	var a engine.Annotations
	if n == nil || n.kind != kObject {
		return a, "", nil
	}
	if sk := checkKeys(n, "/annotations", "", true); sk != nil {
		return a, "", sk
	}
	if sk := checkFieldCase(n, annotationFields, "annotations"); sk != nil {
		return a, "", sk
	}
	hint := func(k string) *bool {
		v := n.get(k)
		if v == nil || v.kind != kBool {
			return nil
		}
		b := v.b
		return &b
	}
	a.ReadOnly = hint("readOnlyHint")
	a.Destructive = hint("destructiveHint")
	a.Idempotent = hint("idempotentHint")
	a.OpenWorld = hint("openWorldHint")
	if a.IsReadOnly() && a.Destructive != nil && *a.Destructive {
		a.ReadOnly = nil // contradictory: the more dangerous reading wins
	}
	var title string
	if v := n.get("title"); v != nil && v.kind == kString {
		if len(v.str) > MaxDescription {
			return a, "", skipf(ReasonTitleTooLarge, "annotations.title is %d bytes, bound %d", len(v.str), MaxDescription)
		}
		title = v.str
	}
	return a, title, nil
}

// canonicalDefinition is the canonical JSON of what a tool is: sanitized
// texts, normalized hints and both schemas. Pins hash it.
func canonicalDefinition(def engine.ToolDef, in, out *node) []byte {
	obj := &node{kind: kObject}
	add := func(k string, v *node) { obj.obj = append(obj.obj, member{key: k, val: v}) }
	str := func(s string) *node { return &node{kind: kString, str: s} }
	add("name", str(def.Tool))
	if def.Title != "" {
		add("title", str(def.Title))
	}
	if def.Description != "" {
		add("description", str(def.Description))
	}
	ann := &node{kind: kObject}
	for _, h := range []struct {
		k string
		v *bool
	}{{"readOnlyHint", def.Annotations.ReadOnly}, {"destructiveHint", def.Annotations.Destructive}, {"idempotentHint", def.Annotations.Idempotent}, {"openWorldHint", def.Annotations.OpenWorld}} {
		if h.v != nil {
			ann.obj = append(ann.obj, member{key: h.k, val: &node{kind: kBool, b: *h.v}})
		}
	}
	if len(ann.obj) > 0 {
		add("annotations", ann)
	}
	add("inputSchema", in)
	if out != nil && out.kind == kObject {
		add("outputSchema", out)
	}
	return appendCanonical(nil, obj)
}
