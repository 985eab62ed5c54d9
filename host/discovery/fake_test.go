package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/relavium/relavium/fault"
)

// fakeLister serves fixed raw pages by cursor.
type fakeLister map[string]string

func (f fakeLister) ListToolsRaw(_ context.Context, cursor string) (json.RawMessage, error) {
	p, ok := f[cursor]
	if !ok {
		return nil, fmt.Errorf("no page %q", cursor)
	}
	return json.RawMessage(p), nil
}

// oneTool discovers a single tool with the given input schema.
func oneTool(t *testing.T, schema string) *Tool {
	t.Helper()
	cat, err := Discover(context.Background(), "srv", fakeLister{"": `{"tools":[{"name":"t","inputSchema":` + schema + `}]}`}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Tools) != 1 {
		t.Fatalf("tool refused: %+v", cat.Skipped)
	}
	Namespace([]*Catalogue{cat})
	return cat.Tools[0]
}

func TestValidateNamesPointerAndRule(t *testing.T) {
	tool := oneTool(t, `{"type":"object",
		"properties":{
			"a":{"type":"array","items":{"type":"object","properties":{"b":{"type":"string"}}}},
			"mode":{"enum":["x","y"]},
			"n":{"$ref":"#/$defs/num"},
			"tags":{"type":"object","additionalProperties":{"type":"integer"}},
			"a/b~c":{"type":"boolean"}
		},
		"required":["mode"],
		"additionalProperties":false,
		"$defs":{"num":{"type":"integer","minimum":0}}}`)
	cases := []struct {
		args      string
		code      fault.Code
		ptr, rule string
	}{
		{`{"mode":"x"}`, "", "", ""},
		{``, CodeInvalidArgs, "", "required"},
		{`{}`, CodeInvalidArgs, "", "required"},
		{`{"mode":"z"}`, CodeInvalidArgs, "/mode", "enum"},
		{`{"mode":"x","a":[{"b":"ok"},{"b":5}]}`, CodeInvalidArgs, "/a/1/b", "type"},
		{`{"mode":"x","n":-1}`, CodeInvalidArgs, "/n", "minimum"},
		{`{"mode":"x","tags":{"ok":1,"bad":"s"}}`, CodeInvalidArgs, "/tags/bad", "type"},
		{`{"mode":"x","a/b~c":1}`, CodeInvalidArgs, "/a~1b~0c", "type"},
		{`{"mode":"x","extra":1}`, CodeInvalidArgs, "", "additionalProperties"},
		{`{"mode":"x","mode":"y"}`, CodeMalformedArgs, "/mode", "duplicate key"},
		{`{"mode":"x","a":[{"b":"1","b":"2"}]}`, CodeMalformedArgs, "/a/0/b", "duplicate key"},
		{`[1]`, CodeMalformedArgs, "", "type"},
		{`{`, CodeMalformedArgs, "", "json"},
	}
	for _, tc := range cases {
		err := tool.Validate(json.RawMessage(tc.args))
		if tc.code == "" {
			if err != nil {
				t.Errorf("Validate(%s) = %v", tc.args, err)
			}
			continue
		}
		var de *Error
		if !errors.As(err, &de) {
			t.Errorf("Validate(%s) = %v, want %s", tc.args, err, tc.code)
			continue
		}
		if de.Code() != tc.code || de.Pointer != tc.ptr || de.Rule != tc.rule {
			t.Errorf("Validate(%s) = code %s pointer %q rule %q (%v); want %s %q %q", tc.args, de.Code(), de.Pointer, de.Rule, de, tc.code, tc.ptr, tc.rule)
		}
		if de.ExitCode() != 2 || de.ErrorData() == nil {
			t.Errorf("Validate(%s): exit %d data %v", tc.args, de.ExitCode(), de.ErrorData())
		}
	}
}

// A bound failure reads as a person writes numbers, not as the library's
// fraction and %f ("300/1 is greater than 5.000000").
func TestValidateNumericBoundsReadPlainly(t *testing.T) {
	tool := oneTool(t, `{"type":"object","properties":{
		"days":{"type":"integer","maximum":5},
		"ratio":{"type":"number","exclusiveMinimum":0.25},
		"step":{"type":"number","multipleOf":0.5}}}`)
	for args, want := range map[string]string{
		`{"days":300}`:   "maximum: 300 is greater than 5",
		`{"ratio":0.25}`: "exclusiveMinimum: 0.25 is less than or equal to 0.25",
		`{"step":1.3}`:   "multipleOf: 1.3 is not a multiple of 0.5",
		`{"days":-1e2}`:  "", // valid
	} {
		err := tool.Validate(json.RawMessage(args))
		if want == "" {
			if err != nil {
				t.Errorf("Validate(%s) = %v", args, err)
			}
			continue
		}
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("Validate(%s) = %v; want it to end %q", args, err, want)
		}
	}
}

func TestExplainNamesThePropertyAndReadsPlainly(t *testing.T) {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{"cups":{"type":"integer","maximum":20},"a/b":{"type":"string"}},"required":["cups"]}`), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for inst, want := range map[string]string{
		`{"cups":20000}`:        "cups: maximum: 20000 is greater than 20",
		`{"cups":1,"a/b":true}`: `a/b: type: true has type "boolean", want "string"`,
		`{}`:                    `required: missing properties: ["cups"]`,
	} {
		var v any
		_ = json.Unmarshal([]byte(inst), &v)
		if got := Explain(rs.Validate(v)); got != want {
			t.Errorf("Explain(%s) = %q, want %q", inst, got, want)
		}
	}
}

func TestValidateDraft07Items(t *testing.T) {
	tool := oneTool(t, `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
		"properties":{"xs":{"type":"array","items":[{"type":"string"},{"type":"integer"}]},"ys":{"type":"array","items":{"type":"string"}}}}`)
	for _, tc := range []struct{ args, ptr string }{
		{`{"xs":["a","b"]}`, "/xs/1"},
		{`{"ys":["a","b",3]}`, "/ys/2"},
	} {
		var de *Error
		if err := tool.Validate(json.RawMessage(tc.args)); !errors.As(err, &de) || de.Pointer != tc.ptr || de.Rule != "type" {
			t.Errorf("Validate(%s) = %v (pointer %q), want %q", tc.args, err, de.Pointer, tc.ptr)
		}
	}
}

func TestDiscoverNotCaptured(t *testing.T) {
	_, err := Discover(context.Background(), "s", listerFunc(func(context.Context, string) (json.RawMessage, error) {
		return nil, errNotCaptured
	}), Options{})
	var de *Error
	if !errors.As(err, &de) || de.Code() != CodeNotCaptured {
		t.Fatalf("err = %v", err)
	}
	if _, err := Discover(context.Background(), "s", nil, Options{}); err == nil {
		t.Fatal("nil lister accepted")
	}
}

type listerFunc func(context.Context, string) (json.RawMessage, error)

func (f listerFunc) ListToolsRaw(ctx context.Context, c string) (json.RawMessage, error) {
	return f(ctx, c)
}

func TestPageShapes(t *testing.T) {
	bad := []string{
		`[]`, `{"tools":{}}`, `{}`, `{"tools":[],"tools":[]}`, `{"tools":[],"nextCursor":{}}`,
		`{"tools":[]} x`, `{"tools":[],"nextCursor":"` + string(make([]byte, 0)) + "\xff" + `"}`,
	}
	for _, p := range bad {
		_, err := Discover(context.Background(), "s", fakeLister{"": p}, Options{})
		var de *Error
		if !errors.As(err, &de) || de.Code() != CodeMalformedPage {
			t.Errorf("page %q: err = %v, want %s", p, err, CodeMalformedPage)
		}
	}
	// Unknown members (ttlMs, _meta) and a null cursor are fine.
	cat, err := Discover(context.Background(), "s", fakeLister{"": `{"_meta":{},"ttlMs":5,"tools":[],"nextCursor":null}`}, Options{})
	if err != nil || len(cat.Tools) != 0 || cat.Pages != 1 {
		t.Fatalf("cat %+v err %v", cat, err)
	}
}

func TestSkippedRowsAreCapped(t *testing.T) {
	tools := ""
	for i := 0; i < 40; i++ {
		if i > 0 {
			tools += ","
		}
		tools += fmt.Sprintf(`{"name":"bad name %d","inputSchema":{"type":"object"}}`, i)
	}
	cat, err := Discover(context.Background(), "s", fakeLister{"": `{"tools":[` + tools + `]}`}, Options{MaxSkipped: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Skipped) != 11 {
		t.Fatalf("%d rows", len(cat.Skipped))
	}
	last := cat.Skipped[10]
	if last.Code != ReasonSkippedListTruncate || last.Detail != "30 more tools were refused: invalid_name×30" {
		t.Errorf("summary row %+v", last)
	}
}

// A duplicate of an admitted tool that is itself refused still makes the
// name ambiguous.
func TestDuplicateOfRefusedTool(t *testing.T) {
	page := `{"tools":[{"name":"x","inputSchema":{"type":"object"}},{"name":"x","inputSchema":{"type":"string"}}]}`
	cat, err := Discover(context.Background(), "s", fakeLister{"": page}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Tools) != 0 || cat.PayloadBytes != 0 {
		t.Fatalf("admitted %q payload %d", names(cat), cat.PayloadBytes)
	}
	if r := rows(cat); len(r) != 2 || r[0] != "x="+ReasonDuplicateToolName || r[1] != "x="+ReasonSchemaNotObject {
		t.Errorf("rows %q", r)
	}
}

// A discovery error reads like every other relavium error on a terminal.
func TestWriteHumanStartsLikeEveryError(t *testing.T) {
	for _, e := range []*Error{
		{Base: fault.Base{ErrCode: CodeInvalidArgs, Msg: "arguments for t: type"}, Server: "s", Pointer: "/a", Rule: "type"},
		{Base: fault.Base{ErrCode: CodeMalformedPage, Msg: "tools/list page 1 is malformed"}, Server: "s"},
	} {
		var b strings.Builder
		if err := e.WriteHuman(&b); err != nil || !strings.HasPrefix(b.String(), "relavium: "+string(e.ErrCode)+": ") {
			t.Errorf("WriteHuman = %q (%v)", b.String(), err)
		}
	}
}
