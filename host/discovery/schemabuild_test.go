package discovery

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemasTheBuilderTakes are ordinary schemas: buildSchema must build each
// itself (a builder that always declined would pass the equality checks).
var schemasTheBuilderTakes = []string{
	`{"type":"object"}`,
	`true`, `false`,
	`{"type":"object","properties":{"a":{"type":"string","minLength":1,"maxLength":64,"pattern":"^[a-z]+$","format":"email"},"b":{"type":["integer","null"],"minimum":-3,"maximum":1e6,"exclusiveMinimum":0.5,"multipleOf":0.25}},"required":["a"],"additionalProperties":false}`,
	`{"$schema":"https://json-schema.org/draft/2020-12/schema","$comment":"c","title":"T","description":"D\u202e\u0007","deprecated":true,"readOnly":false,"writeOnly":true,"examples":[1,"x",null,{"k":[true]}],"default":{"z":1,"a":[2.50,"é"]}}`,
	`{"type":"array","items":{"type":"number"},"minItems":0,"maxItems":2147483647,"uniqueItems":true,"contains":{"const":3},"minContains":1,"maxContains":2,"unevaluatedItems":false,"prefixItems":[{"type":"string"},true]}`,
	`{"items":[{"type":"string"},{"type":"integer"}],"additionalItems":false}`,
	`{"items":true}`,
	`{"enum":["a",1,1.5,null,true,[1],{"x":"y"}],"const":null}`,
	`{"const":{"nested":[1,2,{"deep":"v"}]}}`,
	`{"$defs":{"n":{"type":"integer"}},"definitions":{"m":{"$ref":"#/$defs/n"}},"$anchor":"top","$dynamicAnchor":"dyn","$dynamicRef":"#dyn","$vocabulary":{"https://example.com/v":true,"https://example.com/w":false}}`,
	`{"allOf":[{"type":"object"}],"anyOf":[{"required":["a"]},{"required":["b"]}],"oneOf":[true,false],"not":{"type":"null"},"if":{"properties":{"k":{"const":1}}},"then":{"required":["v"]},"else":true}`,
	`{"dependentRequired":{"a":["b","c"],"d":[]},"dependentSchemas":{"a":{"required":["z"]}},"dependencies":{"x":["y"],"w":{"minProperties":1},"v":true}}`,
	`{"patternProperties":{"^x-":{"type":"string"}},"propertyNames":{"maxLength":8},"unevaluatedProperties":{"type":"boolean"},"minProperties":1,"maxProperties":9}`,
	`{"contentEncoding":"base64","contentMediaType":"application/json","contentSchema":{"type":"object"}}`,
	`{"type":"object","x-vendor":{"a":[1,null]},"nullable":true,"$id2":"not an id","propertiesX":{}}`,
	`{"minLength":-0,"maxLength":1.0,"minimum":-0,"maximum":1E2,"enum":[12345678901234567890]}`,
}

// schemasTheBuilderDeclines must fall back to json.Unmarshal (which may
// accept or refuse them); buildSchema must not guess.
var schemasTheBuilderDeclines = []string{
	`null`,
	`{"Type":"object"}`,              // encoding/json matches fields case-insensitively
	`{"PROPERTIES":{}}`,              // ... and keeps the member in Extra too
	`{"title":null}`,                 // null leaves a field alone
	`{"minimum":null}`,               //
	`{"not":null}`,                   //
	`{"properties":{"a":null}}`,      //
	`{"default":null}`,               //
	`{"type":1}`,                     // wrong JSON types: the library's error is the message
	`{"type":["string",1]}`,          //
	`{"title":5}`,                    //
	`{"minLength":1.5}`,              //
	`{"minLength":1e10}`,             // out of int32 range
	`{"minLength":1e21}`,             // canonical form has an exponent
	`{"required":"a"}`,               //
	`{"items":"x"}`,                  //
	`{"dependencies":{"a":"b"}}`,     //
	`{"$vocabulary":{"a":1}}`,        //
	`{"a":1,"a":2}`,                  // duplicate members
	`{"properties":{"p":{},"p":{}}}`, //
	`{"minimum":"1"}`,                //
	`{"uniqueItems":"yes"}`,          //
	`{"allOf":{}}`,                   //
	`{"enum":[1e400]}`,               // beyond float64
	`{"de\u017fcription":"x"}`,       // LATIN SMALL LETTER LONG S folds to s for encoding/json too
}

func decodeLikeTheLibrary(t testing.TB, src []byte) (*jsonschema.Schema, error) {
	t.Helper()
	var s jsonschema.Schema
	err := json.Unmarshal(src, &s)
	return &s, err
}

func checkBuild(t testing.TB, text string) (built bool) {
	t.Helper()
	root, err := parseJSON([]byte(text))
	if err != nil {
		return false
	}
	src := appendCanonical(nil, root)
	got, ok := buildSchema(root)
	if !ok {
		return false
	}
	want, err := decodeLikeTheLibrary(t, src)
	if err != nil {
		t.Fatalf("%s: built a schema the library refuses: %v", text, err)
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("%s: built\n%s\nthe library decodes\n%s\n(%#v vs %#v)", text, g, w, got, want)
	}
	return true
}

func TestBuildSchemaMatchesUnmarshal(t *testing.T) {
	for _, text := range schemasTheBuilderTakes {
		if !checkBuild(t, text) {
			t.Errorf("%s: declined an ordinary schema", text)
		}
	}
	for _, text := range schemasTheBuilderDeclines {
		if checkBuild(t, text) {
			t.Errorf("%s: built a schema it should leave to json.Unmarshal", text)
		}
	}
}

// TestCompileFallsBackWithTheLibrarysError: a schema the builder declines
// is still refused with the library's own reason.
func TestCompileFallsBackWithTheLibrarysError(t *testing.T) {
	root, err := parseJSON([]byte(`{"type":"object","properties":{"n":{"minLength":1.5}}}`))
	if err != nil {
		t.Fatal(err)
	}
	_, _, sk := compileSchema(root, "inputSchema")
	if sk == nil || sk.code != ReasonSchemaInvalid || !strings.Contains(sk.detail, "integer") {
		t.Fatalf("skip = %+v", sk)
	}
}

// TestSchemaKeywordsCoverTheLibrary fails when jsonschema-go gains or loses
// a keyword field, so the builder cannot silently put a new keyword in
// Extra after an upgrade.
func TestSchemaKeywordsCoverTheLibrary(t *testing.T) {
	special := map[string]bool{"type": true, "items": true, "dependencies": true} // tagged "-", decoded by hand in the library
	lib := map[string]bool{}
	var walk func(rt reflect.Type)
	walk = func(rt reflect.Type) {
		for i := range rt.NumField() {
			f := rt.Field(i)
			if f.Anonymous {
				walk(f.Type)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			lib[name] = true
		}
	}
	walk(reflect.TypeFor[jsonschema.Schema]())
	for k := range special {
		lib[k] = true
	}
	for k := range lib {
		if !schemaKeywords[k] {
			t.Errorf("jsonschema.Schema decodes %q but schemaKeywords lacks it", k)
		}
	}
	for k := range schemaKeywords {
		if !lib[k] {
			t.Errorf("schemaKeywords has %q, which jsonschema.Schema does not decode", k)
		}
	}
}

func FuzzBuildSchema(f *testing.F) {
	for _, s := range schemasTheBuilderTakes {
		f.Add(s)
	}
	for _, s := range schemasTheBuilderDeclines {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkBuild(t, text)
	})
}
