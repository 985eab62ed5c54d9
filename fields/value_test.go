package fields_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/relavium/relavium/fields"
	"github.com/relavium/relavium/fields/fieldstest"
)

func field(t *testing.T, prop string) fields.Field {
	t.Helper()
	fs, err := fields.Of(fieldstest.Schema(prop))
	if err != nil || len(fs) != 1 || fs[0].Name != "v" {
		t.Fatalf("Of(%s) = %+v, %v", prop, fs, err)
	}
	return fs[0]
}

func TestValueAgreementTable(t *testing.T) {
	for _, c := range fieldstest.Cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := field(t, c.Prop).Value(c.Text)
			if c.Err != "" {
				if err == nil || !strings.Contains(err.Error(), c.Err) {
					t.Fatalf("%q: got %s, %v; want error %q", c.Text, got, err, c.Err)
				}
				return
			}
			if err != nil || string(got) != c.Want {
				t.Fatalf("%q: got %s, %v; want %s", c.Text, got, err, c.Want)
			}
		})
	}
}

func TestValueErrors(t *testing.T) {
	for _, tc := range []struct{ prop, text, want string }{
		{`{"type":"boolean"}`, "yes", `"yes" is not a boolean: write true or false`},
		{`{"type":["integer","null"]}`, "x", `"x" is not an integer or null`},
		{`{"type":"object"}`, "[1]", `"[1]" is not a JSON object`},
		{`{"type":"object"}`, "{", `"{" is not a JSON object: unexpected end of JSON input`},
		{`{"type":"number"}`, "1e400", `"1e400" is not a number`},
		{`{"type":"number"}`, "0x10", `"0x10" is not a number`},
	} {
		_, err := field(t, tc.prop).Value(tc.text)
		var te *fields.TypeError
		if !errors.As(err, &te) || err.Error() != tc.want {
			t.Errorf("%s %q: %v, want %s", tc.prop, tc.text, err, tc.want)
		}
	}
	_, err := field(t, `{}`).Value(strings.Repeat("{\"a\":", 300))
	var de *fields.DepthError
	if !errors.As(err, &de) {
		t.Errorf("deep untyped JSON: %v", err)
	}
}

func TestValueSpellings(t *testing.T) {
	for _, tc := range []struct{ prop, text, want string }{
		{`{"type":"integer"}`, " +007 ", `7`},
		{`{"type":"integer"}`, "-0", `0`},
		{`{"type":"number"}`, "+1.5", `1.5`},
		{`{"type":"number"}`, ".5", `0.5`},
		{`{"type":"number"}`, "1e3", `1e3`},
		{`{"type":"boolean"}`, "FALSE", `false`},
		{`{"type":["boolean","null"]}`, " null ", `null`},
		{`{"type":"string"}`, "<a&b>", `"<a&b>"`},
		{`{}`, "", `""`},
		{`{"type":"string","enum":["a","b"]}`, "c", `"c"`}, // the validator names the enum
	} {
		got, err := field(t, tc.prop).Value(tc.text)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s %q: %s, %v; want %s", tc.prop, tc.text, got, err, tc.want)
		}
	}
}

func FuzzValue(f *testing.F) {
	for _, c := range fieldstest.Cases {
		f.Add(c.Prop, c.Text)
	}
	f.Fuzz(func(t *testing.T, prop, text string) {
		fs, err := fields.Of(fieldstest.Schema(prop))
		if err != nil || len(fs) != 1 {
			return
		}
		v, err := fs[0].Value(text)
		if err != nil {
			return
		}
		if !jsonValid(v) {
			t.Fatalf("%s %q: Value gave invalid JSON %q", prop, text, v)
		}
		if fs[0].Has("string") && !fs[0].Has("null") && len(fs[0].Enum) == 0 && len(fs[0].Types) == 1 && string(v) != string(mustQuote(text)) {
			t.Fatalf("a string field changed the text: %q -> %s", text, v)
		}
	})
}
