package workflow

import (
	"errors"
	"strings"
	"testing"

	"github.com/relavium/relavium/fields/fieldstest"
)

// run --input types every case of the agreement table a workflow input
// can declare as the other surfaces do (invoke and tui run the same
// table). A plan holds numbers as float64, so a value it would round is
// refused (E603) instead, and says so; the value it refuses is the exact
// one the other surfaces send.
func TestInputArgsAgreeWithEverySurface(t *testing.T) {
	n := 0
	for _, c := range fieldstest.Cases {
		if c.Input == "" {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			dir := project(t, map[string]string{"agree.yaml": "id: agree\nside_effect: read\ninputs:\n  - {name: v, " + c.Input + "}\n" +
				"steps:\n  - {id: g, gate: \"go?\"}\n"})
			w, err := LoadWorkflow(dir, "agree")
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseInputArgs(w, []string{"v=" + c.Text})
			var pe *ProblemsError
			switch {
			case c.Err != "":
				if !errors.As(err, &pe) || pe.Code() != CodeInputsInvalid || !strings.Contains(render(pe.Problems), c.Err) {
					t.Fatalf("v=%q: %v; want E603 saying %q", c.Text, err, c.Err)
				}
			case c.PlanRefuses:
				if !errors.As(err, &pe) || pe.Code() != CodeInputsInvalid || !strings.Contains(render(pe.Problems), "by JavaScript and has no faithful JSON number form") {
					t.Fatalf("v=%q: %v; want E603: the plan cannot hold it", c.Text, err)
				}
			default:
				if err != nil || !fieldstest.SameValue(got["v"], c.Want) {
					t.Fatalf("v=%q: %#v, %v; want %s", c.Text, got["v"], err, c.Want)
				}
				if _, err := w.ResolveInputs(got); err != nil {
					t.Fatalf("v=%q: the typed value does not resolve: %v", c.Text, err)
				}
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d cases are workflow inputs", n)
	}
}
