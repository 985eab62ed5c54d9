package fields_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/relavium/relavium/fields"
)

func jsonValid(b []byte) bool { return json.Valid(b) }

func mustQuote(s string) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return []byte(strings.TrimSuffix(b.String(), "\n"))
}

func TestOfReadsFieldsInDeclaredOrder(t *testing.T) {
	fs, err := fields.Of(json.RawMessage(`{"type":"object","required":["z","a"],"properties":{
		"z":{"type":"string","title":"Zed","description":"last letter","format":"email","default":"x@y"},
		"a":{"type":["integer","null"],"default":3},
		"m":{"oneOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"}]},
		"tags":{"type":"array","items":{"type":"string","enum":["p","q"]}},
		"pt":{"$ref":"#/$defs/P","description":"where"},
		"any":true,
		"loop":{"$ref":"#/$defs/L1"},
		"far":{"$ref":"https://example.com/s.json"}},
		"$defs":{"P":{"type":"object","description":"a point","required":["x"],"properties":{"x":{"type":"integer"},"y":{"$ref":"#/$defs/P"}}},
		"L1":{"$ref":"#/$defs/L2"},"L2":{"$ref":"#/$defs/L1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != "z,a,m,tags,pt,any,loop,far" {
		t.Fatalf("order %v", names)
	}
	z, a, m, tags, pt := fs[0], fs[1], fs[2], fs[3], fs[4]
	if !z.Required || z.Title != "Zed" || z.Description != "last letter" || z.Format != "email" || z.Default != "x@y" || !z.HasDefault || z.TypeLabel() != "string" {
		t.Errorf("z = %+v", z)
	}
	if !a.Required || a.Type() != "integer" || !a.Has("null") || a.TypeLabel() != "integer|null" || a.Default != float64(3) {
		t.Errorf("a = %+v", a)
	}
	if !reflect.DeepEqual(m.Enum, []any{"r", "g"}) || !reflect.DeepEqual(m.EnumTitles, []string{"Red", "Green"}) {
		t.Errorf("m = %+v", m)
	}
	if vals, _ := tags.ItemsEnum(); !reflect.DeepEqual(vals, []any{"p", "q"}) || tags.Items.Type() != "string" {
		t.Errorf("tags = %+v", tags)
	}
	if pt.Ref != "#/$defs/P" || pt.Type() != "object" || pt.Description != "where" || len(pt.Properties) != 2 ||
		pt.Properties[0].Name != "x" || !pt.Properties[0].Required || pt.Properties[1].Type() != "object" {
		t.Errorf("pt = %+v", pt)
	}
	// A self-referring schema stops at MaxNest.
	depth := 0
	for p := &pt; p != nil && len(p.Properties) == 2; p = &p.Properties[1] {
		depth++
	}
	if depth > fields.MaxNest+1 {
		t.Errorf("nested %d levels", depth)
	}
	for _, f := range fs[5:] {
		if len(f.Types) != 0 {
			t.Errorf("%s should be untyped: %+v", f.Name, f)
		}
	}
	if d, ok := fields.Defaults(fs); !ok || d["z"] != "x@y" || d["a"] != float64(3) || len(d) != 2 {
		t.Errorf("Defaults = %v, %v", d, ok)
	}
	fs[4].Required = true // a required field without a default: no honest answer
	if _, ok := fields.Defaults(fs); ok {
		t.Error("Defaults answered without a required field's default")
	}
}

func TestOfRefusesWhatIsNotASchema(t *testing.T) {
	if _, err := fields.Of(json.RawMessage(`[1]`)); err == nil {
		t.Error("an array is not an object schema")
	}
	if _, err := fields.Of(json.RawMessage(`{"properties":[1]}`)); err == nil {
		t.Error("properties must be an object")
	}
	if fs, err := fields.Of(nil); fs != nil || err != nil {
		t.Error("an empty schema has no fields")
	}
}
