package workflow

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

// TestWorkflowNestingRefusedBeforeParse: a workflow nested past 64 levels,
// in any form, is E600 at the character that passed the cap, and refusing
// it costs a few MiB (the 64-level check on the tree comes after goccy has
// built the tree; the pre-scan comes before).
func TestWorkflowNestingRefusedBeforeParse(t *testing.T) {
	var block strings.Builder
	block.WriteString(okHead)
	for i := range 200 {
		block.WriteString(strings.Repeat(" ", i) + "steps:\n")
	}
	cases := []struct {
		name      string
		yaml      string
		line, col int
		field     string
	}{
		{"flow mappings 50000", okHead + "steps: " + strings.Repeat("{a: ", 50000) + "1" + strings.Repeat("}", 50000) + "\n", 3, 8 + 4*63, "steps"},
		{"flow sequences 30000", okHead + "steps: " + strings.Repeat("[", 30000) + strings.Repeat("]", 30000) + "\n", 3, 8 + 63, "steps"},
		{"flow sequences 100000", okHead + "steps: " + strings.Repeat("[", 100000) + "\n", 3, 8 + 63, "steps"},
		{"block mappings", block.String(), 3 + 64, 65 + 5, "steps"},
		{"compact sequences", okHead + "steps:\n" + strings.Repeat("- ", 30000) + "x\n", 4, 1 + 2*63, "steps"},
		{"mixed", okHead + "steps:\n" + strings.Repeat("- a: [ {b: ", 20000) + "\n", 4, 1 + 11*15 + 7, "steps"},
		{"complex keys", okHead + "steps:\n  " + strings.Repeat("? ", 30000) + "x\n", 4, 3 + 2*63, "steps"},
	}
	for _, c := range cases {
		dir := project(t, map[string]string{"w.yaml": c.yaml})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := LoadWorkflow(dir, "w")
		runtime.ReadMemStats(&after)
		ps := problemsOf(t, err)
		if len(ps) != 1 || ps[0].Line != c.line || ps[0].Col != c.col || ps[0].Field != c.field ||
			!strings.Contains(ps[0].Message, "nesting deeper than 64 levels") {
			t.Errorf("%s: %s\n want line %d col %d field %s", c.name, render(ps), c.line, c.col, c.field)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 16<<20 {
			t.Errorf("%s: the refusal allocated %d MiB", c.name, d>>20)
		}
	}
}

// TestWorkflowTreeCheckAgrees: 64 levels load, 65 are refused, with the
// pre-scan and the tree check giving the same verdict.
func TestWorkflowTreeCheckAgrees(t *testing.T) {
	nest := func(n int) string { // steps is level 1 of the top mapping's value
		return okHead + "steps: [{id: a, gate: ok}]\noutputs: {o: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "}\n"
	}
	// top mapping 1, outputs mapping 2, then the sequences.
	dir := project(t, map[string]string{"w.yaml": nest(62)})
	if _, err := LoadWorkflow(dir, "w"); err != nil && strings.Contains(err.Error(), "nesting") {
		t.Fatalf("64 levels refused: %v", err)
	}
	dir = project(t, map[string]string{"w.yaml": nest(63)})
	_, err := LoadWorkflow(dir, "w")
	if err == nil || !strings.Contains(err.Error(), "nesting deeper than 64 levels") {
		t.Fatalf("65 levels: %v", err)
	}
}

func TestInputJSONNestingRefused(t *testing.T) {
	w := loadTyped(t)
	_, err := ParseInputArgs(w, []string{"s=x", "a=" + strings.Repeat("[", 100000), "o=" + strings.Repeat(`{"a":`, 50000)})
	var pe *ProblemsError
	if !errors.As(err, &pe) || pe.Code() != CodeInputsInvalid || pe.ExitCode() != 2 || len(pe.Problems) != 2 {
		t.Fatalf("got %v", err)
	}
	for _, p := range pe.Problems {
		if !strings.Contains(p.Message, "nesting deeper than 256 levels") || len(p.Message) > 200 {
			t.Errorf("%s", p)
		}
	}
}
