package workflow

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const typedWorkflow = `id: typed
side_effect: read
inputs:
  - {name: s, type: string, required: true}
  - {name: i, type: integer, default: 30}
  - {name: f, type: number}
  - {name: b, type: boolean, default: false}
  - {name: a, type: array}
  - {name: o, type: object}
  - {name: e, type: string, enum: [low, high], default: low}
steps:
  - {id: g, gate: "go {{inputs.s}}?"}
`

func loadTyped(t *testing.T) *Workflow {
	t.Helper()
	dir := project(t, map[string]string{"typed.yaml": typedWorkflow})
	w, err := LoadWorkflow(dir, "typed")
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestParseInputArgsByDeclaredType(t *testing.T) {
	w := loadTyped(t)
	got, err := ParseInputArgs(w, []string{"s=a=b", "i=42", "f=2.5", "b=true", `a=[1,"x"]`, `o={"k":1}`, "e=high"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	if string(b) != `{"a":[1,"x"],"b":true,"e":"high","f":2.5,"i":42,"o":{"k":1},"s":"a=b"}` {
		t.Fatalf("parsed %s", b)
	}
	if _, ok := got["i"].(int64); !ok {
		t.Fatalf("integer input is %T", got["i"])
	}
}

func TestParseInputArgsReportsEveryProblem(t *testing.T) {
	w := loadTyped(t)
	_, err := ParseInputArgs(w, []string{"novalue", "i=4.5", "f=NaN", "b=yes", "a={}", "o=[1]", "zz=1", "s=x", "s=y"})
	var pe *ProblemsError
	if !errors.As(err, &pe) || pe.Code() != CodeInputsInvalid || pe.ExitCode() != 2 {
		t.Fatalf("got %v", err)
	}
	if len(pe.Problems) != 8 {
		t.Fatalf("want 8 problems, got:\n%s", render(pe.Problems))
	}
	for _, want := range []string{"not KEY=VALUE", "not an integer", "not a number", "not a boolean", "not a JSON array", "not a JSON object", `no input "zz"`, "given twice"} {
		if !strings.Contains(render(pe.Problems), want) {
			t.Errorf("missing %q in:\n%s", want, render(pe.Problems))
		}
	}
}

func TestResolveInputsDefaultsRequiredTypesAndEnums(t *testing.T) {
	w := loadTyped(t)
	got, err := w.ResolveInputs(map[string]any{"s": "x"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	if string(b) != `{"b":false,"e":"low","i":30,"s":"x"}` {
		t.Fatalf("defaults: %s", b)
	}
	_, err = w.ResolveInputs(map[string]any{"i": "ten", "e": "medium", "extra": 1, "a": map[string]any{}})
	var pe *ProblemsError
	if !errors.As(err, &pe) || pe.Code() != CodeInputsInvalid {
		t.Fatalf("got %v", err)
	}
	text := render(pe.Problems)
	for _, want := range []string{`no input "extra"`, "input s (string) is required", `"ten" does not fit input i`, `"medium" does not fit input e (string, one of "low", "high")`, "{} does not fit input a"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
	if len(pe.Problems) != 5 {
		t.Fatalf("want 5 problems:\n%s", text)
	}
	// The caller's map is not modified.
	given := map[string]any{"s": "x"}
	if _, err := w.ResolveInputs(given); err != nil || len(given) != 1 {
		t.Fatalf("given was modified: %v %v", given, err)
	}
}

// An integer no float64 holds exactly is the person's input mistake
// (E603, exit 2), refused with the others — never rounded into another
// value, never left to fail later as a plan that cannot be encoded.
func TestInputsRefuseIntegersJSONCannotHold(t *testing.T) {
	w := loadTyped(t)
	_, err := ParseInputArgs(w, []string{"s=x", "i=9007199254740993", "f=9007199254740993", `a=[1,{"n":9007199254740993}]`, `o={"k":[-9007199254740993]}`})
	var pe *ProblemsError
	if !errors.As(err, &pe) || pe.Code() != CodeInputsInvalid || pe.ExitCode() != 2 {
		t.Fatalf("got %v", err)
	}
	text := render(pe.Problems)
	if len(pe.Problems) != 4 || !strings.Contains(text, "the integer 9007199254740993 is written 9007199254740992 by JavaScript") {
		t.Fatalf("want i, f, a and o refused:\n%s", text)
	}
	// 2^53 itself, fractions and exponents are numbers as JSON has them.
	if _, err := ParseInputArgs(w, []string{"f=9007199254740992", `a=[0.1,1e300,-0]`}); err != nil {
		t.Fatal(err)
	}

	// Inputs that arrive decoded (the machine surface) meet the same rule.
	_, err = w.ResolveInputs(map[string]any{"s": "x", "i": int64(1<<53 + 1)})
	if !errors.As(err, &pe) || pe.Code() != CodeInputsInvalid || pe.ExitCode() != 2 ||
		!strings.Contains(render(pe.Problems), "input i: $: the integer 9007199254740993 is written 9007199254740992 by JavaScript") {
		t.Fatalf("got %v", err)
	}
}

func TestInputSchemaIsPublishable(t *testing.T) {
	w := loadTyped(t)
	var s struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
		Additional *bool                      `json:"additionalProperties"`
	}
	if err := json.Unmarshal(w.InputSchema(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "object" || len(s.Properties) != 7 || len(s.Required) != 1 || s.Required[0] != "s" || s.Additional == nil || *s.Additional {
		t.Fatalf("schema %s", w.InputSchema())
	}
	if !strings.Contains(string(w.InputSchema()), `"properties":{"s":{"type":"string"},"i":{"type":"integer","default":30}`) {
		t.Fatalf("properties are not in authored order: %s", w.InputSchema())
	}
	// The returned schema is a copy.
	w.InputSchema()[0] = 'X'
	if w.InputSchema()[0] != '{' {
		t.Fatal("InputSchema exposes the workflow's own bytes")
	}
	// A workflow without inputs still publishes an object schema.
	dir := project(t, map[string]string{"none.yaml": "id: none\nside_effect: read\nsteps: [{id: g, gate: ok}]\n"})
	none, err := LoadWorkflow(dir, "none")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(none.InputSchema()); got != `{"type":"object","properties":{},"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":false}` {
		t.Fatalf("empty schema %s", got)
	}
}
