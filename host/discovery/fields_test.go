package discovery

import (
	"reflect"
	"testing"

	"github.com/relavium/relavium/fields"
	"github.com/relavium/relavium/fields/fieldstest"
)

// Admission reads a tool's fields from its parsed tree; they are what
// fields.Of reads from the admitted schema's text (sanitized descriptions,
// $refs followed, order kept), for every schema of the agreement table
// and a few more shapes.
func TestAdmittedFieldsAreTheSchemasFields(t *testing.T) {
	schemas := []string{
		`{"type":"object"}`,
		`{"type":"object","required":["b"],"properties":{"b":{"type":"string","description":"say \u001b[31mhi\u001b[0m","default":"x"},"a":{"type":["integer","null"],"enum":[1,2,null],"enumNames":["one","two","none"]}}}`,
		`{"type":"object","properties":{"m":{"anyOf":[{"const":"r","title":"Red"},{"const":"g"}]},"l":{"type":"array","items":{"enum":["p","q"]}},"o":{"type":"object","properties":{"z":{"type":"number","default":1.5}}}}}`,
	}
	for _, c := range fieldstest.Cases {
		schemas = append(schemas, string(fieldstest.Schema(c.Prop)))
	}
	for _, s := range schemas {
		tool := oneTool(t, s)
		want, err := fields.Of(tool.Def.InputSchema)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if want == nil {
			want = []fields.Field{}
		}
		if !reflect.DeepEqual(tool.Def.Fields, want) {
			t.Errorf("%s:\nadmitted %+v\nre-read  %+v", s, tool.Def.Fields, want)
		}
	}
	if f := oneTool(t, schemas[1]).Def.Fields[0]; f.Description != "say hi" {
		t.Errorf("the admitted field's description is not the sanitized one: %q", f.Description)
	}
}
