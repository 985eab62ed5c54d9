package mcp

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/invoke/cli"
)

// TestBuildArgsRefusesNestingCheaply: --args and KEY=VALUE JSON nested past
// 256 levels is E105 (exit 2) naming where, and refusing it allocates a few
// MiB however deep it goes; 256 levels are still accepted.
func TestBuildArgsRefusesNestingCheaply(t *testing.T) {
	for name, c := range map[string]struct {
		args string
		kv   []string
		col  string
	}{
		"--args arrays":  {args: `{"a":` + strings.Repeat("[", 100000), col: "column 261"},
		"--args objects": {args: strings.Repeat(`{"a":`, 50000), col: "column 1281"},
		"KEY=VALUE":      {kv: []string{"n=" + strings.Repeat("[", 30000)}, col: "column 257"},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := BuildArgs(c.args, c.kv, engine.ToolDef{})
		runtime.ReadMemStats(&after)
		var ie *cli.Error
		if !errors.As(err, &ie) || ie.Code() != cli.CodeNestedJSON || ie.ExitCode() != cli.ExitUsage ||
			!strings.Contains(ie.Msg, "nesting deeper than 256 levels at "+c.col) {
			t.Errorf("%s: %v", name, err)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 16<<20 {
			t.Errorf("%s: the refusal allocated %d MiB", name, d>>20)
		}
	}
	ok := `{"a":` + strings.Repeat("[", 255) + strings.Repeat("]", 255) + "}"
	if _, err := BuildArgs(ok, nil, engine.ToolDef{}); err != nil {
		t.Fatalf("256 levels refused: %v", err)
	}
	if _, err := BuildArgs("", []string{"n=" + strings.Repeat("[", 256) + strings.Repeat("]", 256)}, engine.ToolDef{}); err != nil {
		t.Fatalf("256 levels refused: %v", err)
	}
}
