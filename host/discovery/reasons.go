package discovery

// Reason codes of a SkippedTool. They are stable: `mcp ls`, the
// mcp:tool_skipped event and the TUI carry them, and scripts match on them.
const (
	// The tool entry itself.
	ReasonInvalidTool       = "invalid_tool"        // not an object, or a field of the wrong JSON type
	ReasonInvalidName       = "invalid_name"        // name missing, empty, over 128 bytes, or outside [A-Za-z0-9_.-]
	ReasonDuplicateToolName = "duplicate_tool_name" // two tools of one server share a name (case-insensitively); all are skipped
	ReasonDuplicateKey      = "duplicate_key"       // one JSON object in the definition repeats a key
	ReasonCaseVariantKey    = "case_variant_key"    // keys differing only in case where a reader may fold them (tool object, annotations, schema keywords)
	ReasonInvalidUTF8       = "invalid_utf8"        // a semantic string holds invalid UTF-8 or a lone surrogate escape

	// Semantic fields (names, property names, enum/const/default values, required entries, patterns, ...).
	ReasonControlChar   = "control_char_in_semantic_field"   // C0/C1 control (TAB and LF included)
	ReasonBidiChar      = "bidi_char_in_semantic_field"      // bidi control (Trojan Source)
	ReasonInvisibleChar = "invisible_char_in_semantic_field" // zero-width, BOM, tag, variation selector, line separator, other format character

	// Bounds (docs/mcp-integration.md "Discovery and result ingress bounds"), in UTF-8 bytes.
	ReasonDescriptionTooLarge  = "description_too_large"   // description over 8 KiB
	ReasonTitleTooLarge        = "title_too_large"         // title over 8 KiB (the description bound)
	ReasonLiteralTooLarge      = "literal_too_large"       // a string inside a schema over 4 KiB
	ReasonEnumMemberTooLarge   = "enum_member_too_large"   // an enum member over 4 KiB (canonical JSON for non-strings)
	ReasonPropertyNameTooLarge = "property_name_too_large" // a property name (any key in a schema) over 256 B
	ReasonAggregateBudget      = "aggregate_budget_spent"  // the server's discovery budget (1 MiB, 16 384 schema objects) is spent; this and every later tool is refused
	ReasonTooManyTools         = "too_many_tools"          // the server already has 256 admitted tools; this and every later tool is refused
	ReasonToolTooLarge         = "tool_too_large"          // one tool alone is over the server's whole budget (1 MiB as sent, 65 536 JSON values, 16 384 schema objects); refused unread, later tools are still read

	// Schemas.
	ReasonSchemaNotObject        = "schema_not_object"        // inputSchema missing, not an object, or its type is not "object"
	ReasonSchemaDraftUnsupported = "schema_draft_unsupported" // $schema names a draft other than 2020-12 or draft-07
	ReasonSchemaRemoteRef        = "schema_remote_ref"        // a $ref that is not a local "#..." reference (never fetched)
	ReasonSchemaBadPattern       = "schema_bad_pattern"       // a pattern or patternProperties key RE2 cannot compile
	ReasonSchemaTooDeep          = "schema_too_deep"          // nesting deeper than the cap
	ReasonSchemaRefCycle         = "schema_ref_cycle"         // $ref/allOf/anyOf/... loop that never consumes the instance
	ReasonSchemaUnsupported      = "schema_unsupported"       // dynamic refs, embedded $id/$schema, $vocabulary, a number out of range
	ReasonSchemaInvalid          = "schema_invalid"           // jsonschema-go refuses the schema (wrong keyword type, dangling $ref, ...)

	// Session-level.
	ReasonNameCollision  = "name_collision"   // the namespaced name collides (case-insensitively) with another tool of the session
	ReasonNotInAllowlist = "not_in_allowlist" // the server declares tools_allowlist and this tool is not on it
	ReasonInDenylist     = "in_denylist"      // the server's tools_denylist names this tool

	// Pseudo rows (Tool is "*"): summaries, not a single tool.
	ReasonPagingStopped       = "paging_stopped"         // paging stopped early (budget or tool cap); later pages were not fetched
	ReasonSkippedListTruncate = "skipped_list_truncated" // more tools were refused than rows are kept; the detail counts them
)

// ReasonDescription documents a reason code ("" for an unknown one); the
// docs/error-codes.md's table lists the same text.
func ReasonDescription(code string) string { return reasonDescriptions[code] }

// reasonDescriptions documents every reason code.
var reasonDescriptions = map[string]string{
	ReasonInvalidTool:            "the tool entry is not an object or a field has the wrong JSON type",
	ReasonInvalidName:            "the tool name is empty, longer than 128 bytes or outside [A-Za-z0-9_.-]",
	ReasonDuplicateToolName:      "two tools of one server share a name (case-insensitively); all of them are skipped",
	ReasonDuplicateKey:           "a JSON object in the definition repeats a key",
	ReasonCaseVariantKey:         "two keys differ only in case where a reader may fold them",
	ReasonInvalidUTF8:            "a string holds invalid UTF-8 or a lone surrogate",
	ReasonControlChar:            "a semantic field holds a C0/C1 control character (TAB and LF included)",
	ReasonBidiChar:               "a semantic field holds a bidi control character",
	ReasonInvisibleChar:          "a semantic field holds an invisible or format character",
	ReasonDescriptionTooLarge:    "the description is over 8 KiB",
	ReasonTitleTooLarge:          "the title is over 8 KiB",
	ReasonLiteralTooLarge:        "a string inside the schema is over 4 KiB",
	ReasonEnumMemberTooLarge:     "an enum member is over 4 KiB",
	ReasonPropertyNameTooLarge:   "a property name is over 256 bytes",
	ReasonAggregateBudget:        "the server's discovery budget (1 MiB, 16 384 schema objects) is spent",
	ReasonTooManyTools:           "the server already has 256 admitted tools",
	ReasonToolTooLarge:           "the tool alone is over the server's whole discovery budget; refused unread",
	ReasonSchemaNotObject:        "inputSchema is missing or is not an object schema",
	ReasonSchemaDraftUnsupported: "the schema names an unsupported JSON Schema draft",
	ReasonSchemaRemoteRef:        "the schema has a remote $ref (never fetched)",
	ReasonSchemaBadPattern:       "a pattern does not compile as an RE2 regular expression",
	ReasonSchemaTooDeep:          "the schema is nested deeper than the cap",
	ReasonSchemaRefCycle:         "the schema has a reference cycle that never consumes the instance",
	ReasonSchemaUnsupported:      "the schema uses a feature outside the supported subset",
	ReasonSchemaInvalid:          "the schema does not compile",
	ReasonNameCollision:          "the namespaced name collides with another tool in the session",
	ReasonNotInAllowlist:         "the tool is not in the server's tools_allowlist",
	ReasonInDenylist:             "the tool is in the server's tools_denylist",
	ReasonPagingStopped:          "paging stopped early; later pages were not fetched",
	ReasonSkippedListTruncate:    "more tools were refused than rows are kept",
}
