package discovery

import (
	"strings"
	"testing"
)

func TestSchemaNumberOutOfRangeIsRefused(t *testing.T) {
	for _, schema := range []string{
		`{"type":"object","properties":{"p":{"type":"number","default":1e400}}}`,
		`{"type":"object","properties":{"p":{"type":"number","default":{"a":[-1E+999]}}}}`,
		`{"type":"object","properties":{"p":{"type":"number","maximum":1e400}}}`,
		`{"type":"object","properties":{"p":{"enum":[1,1e309]}}}`,
		`{"type":"object","properties":{"p":{"type":"integer","default":1` + strings.Repeat("0", 400) + `}}}`,
	} {
		cat := discoverRaw(t, `{"tools":[{"name":"t","inputSchema":`+schema+`}]}`)
		if len(cat.Tools) != 0 || len(cat.Skipped) != 1 || cat.Skipped[0].Code != ReasonSchemaUnsupported {
			t.Errorf("%s: admitted %d, skipped %+v; want one %s row", schema, len(cat.Tools), cat.Skipped, ReasonSchemaUnsupported)
			continue
		}
		if !strings.Contains(cat.Skipped[0].Detail, "inputSchema/properties/p/") {
			t.Errorf("%s: detail %q does not name the pointer", schema, cat.Skipped[0].Detail)
		}
	}
	// The largest finite values and underflow to zero are fine.
	oneTool(t, `{"type":"object","properties":{"p":{"type":"number","default":1.7976931348623157e308,"minimum":-1.7976931348623157e308,"multipleOf":1e-300}}}`)
}

func TestBadPatternNamesItsPointer(t *testing.T) {
	for schema, want := range map[string]string{
		`{"type":"object","properties":{"a":{"type":"string","pattern":"(?=x)"}}}`:                                 `inputSchema/properties/a/pattern "(?=x)"`,
		`{"type":"object","patternProperties":{"(?<=a)b":{}}}`:                                                     `inputSchema/patternProperties key "(?<=a)b"`,
		`{"type":"object","$defs":{"d":{"items":[{"pattern":"ok"},{"pattern":"a**"}]}},"default":{"pattern":"("}}`: `inputSchema/$defs/d/items/1/pattern "a**"`,
	} {
		cat := discoverRaw(t, `{"tools":[{"name":"t","inputSchema":`+schema+`}]}`)
		if len(cat.Skipped) != 1 || cat.Skipped[0].Code != ReasonSchemaBadPattern {
			t.Errorf("%s: skipped %+v, want one %s row", schema, cat.Skipped, ReasonSchemaBadPattern)
			continue
		}
		if d := cat.Skipped[0].Detail; !strings.HasPrefix(d, want) || strings.Contains(d, "anonymous") {
			t.Errorf("%s: detail %q; want it to start %q", schema, d, want)
		}
	}
}

func TestInvalidNameShowsTheCharacter(t *testing.T) {
	cat := discoverRaw(t, `{"tools":[{"name":"café","inputSchema":{"type":"object"}}]}`)
	if len(cat.Skipped) != 1 || cat.Skipped[0].Code != ReasonInvalidName {
		t.Fatalf("skipped %+v", cat.Skipped)
	}
	if d := cat.Skipped[0].Detail; !strings.Contains(d, `has "é" at byte 3`) {
		t.Errorf("detail %q; want it to name \"é\" at byte 3", d)
	}
}
