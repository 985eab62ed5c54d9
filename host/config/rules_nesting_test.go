package config

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const agentHead = "name: a\ndescription: d\n"

// Positions: the refusal names the character that passed the cap — the
// bracket, the '-', or the ':' of a block key — and counts what came before
// (the top-level mapping is a level; name, description and their values
// are four of the values).

// deepBlock is n levels of block mappings, each indented one more column.
func deepBlock(key string, n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString(key)
		b.WriteString(":\n")
	}
	return b.String()
}

// TestRuleNesting: an agent or config file nested past the cap is refused
// with E226 at the character that passed it (the 64th level is the last allowed), before any parser runs,
// whatever the nesting form.
func TestRuleNesting(t *testing.T) {
	msg := "nesting deeper than 64 levels"
	runRule(t, []ruleCase{
		{name: "agent flow sequence 30000", files: map[string]string{
			agentYAML: agentHead + "mcp_servers: " + strings.Repeat("[", 30000) + strings.Repeat("]", 30000) + "\n",
		}, want: []want{{code: CodeNesting, file: agentYAML, line: 3, col: 14 + 63, field: "mcp_servers", msg: msg}}},
		{name: "agent flow sequence 100000", files: map[string]string{
			agentYAML: agentHead + "mcp_servers: " + strings.Repeat("[", 100000) + "\n",
		}, want: []want{{code: CodeNesting, file: agentYAML, line: 3, col: 14 + 63, field: "mcp_servers", msg: msg}}},
		{name: "agent flow mappings", files: map[string]string{
			agentYAML: agentHead + "mcp_servers: " + strings.Repeat("{a: ", 50000) + "1" + strings.Repeat("}", 50000) + "\n",
		}, want: []want{{code: CodeNesting, file: agentYAML, line: 3, col: 14 + 4*63, field: "mcp_servers", msg: msg}}},
		{name: "agent block mappings", files: map[string]string{
			agentYAML: agentHead + deepBlock("a", 100),
		}, want: []want{{code: CodeNesting, file: agentYAML, line: 3 + 64, col: 66, field: "a", msg: msg}}},
		{name: "agent compact sequences", files: map[string]string{
			agentYAML: agentHead + "mcp_servers:\n" + strings.Repeat("- ", 30000) + "a\n",
		}, want: []want{{code: CodeNesting, file: agentYAML, line: 4, col: 1 + 2*63, field: "mcp_servers", msg: msg}}},
		{name: "agent mixed forms", files: map[string]string{
			agentYAML: agentHead + "mcp_servers:\n" + strings.Repeat("- a: [ {b: ", 20000) + "\n",
		}, want: []want{{code: CodeNesting, file: agentYAML, line: 4, msg: msg, field: "mcp_servers", col: 1 + 11*15 + 7}}},
		{name: "agent values", files: map[string]string{
			agentYAML: agentHead + "mcp_servers: [" + strings.Repeat("a, ", 30000) + "]\n",
		}, want: []want{{code: CodeNesting, file: agentYAML, line: 3, col: 15 + 3*(20000-6), field: "mcp_servers", msg: "more than 20000 values"}}},
		{name: "config array 100000", files: map[string]string{
			globalTOML: "theme = \"dark\"\n[[mcp_servers]]\nname = \"x\"\nargs = " + strings.Repeat("[", 100000) + "\n",
		}, want: []want{{code: CodeNesting, file: globalTOML, line: 4, col: 8 + 61, field: "mcp_servers.args", msg: msg}}},
		{name: "config inline tables", files: map[string]string{
			projectTOML: "[[mcp_servers]]\nenv = " + strings.Repeat("{a = ", 50000) + "\n",
		}, want: []want{{code: CodeNesting, file: projectTOML, line: 2, col: 7 + 5*61, field: "mcp_servers.env", msg: msg}}},
		{name: "config dotted table", files: map[string]string{
			globalTOML: "[" + strings.Repeat("a.", 50000) + "b]\n",
		}, want: []want{{code: CodeNesting, file: globalTOML, line: 1, col: 2 + 2*63 - 1, field: strings.Repeat("a.", 32) + "…", msg: msg}}},
	})
}

// TestNestingRefusalIsCheap: refusing a 100 000-deep agent file costs a
// few MiB (the file itself and the error), not the GBs a parse would.
func TestNestingRefusalIsCheap(t *testing.T) {
	for name, body := range map[string]string{
		"flow":  agentHead + "mcp_servers: " + strings.Repeat("[", 100000) + "\n",
		"map":   agentHead + "mcp_servers: " + strings.Repeat("{a: ", 100000) + "\n",
		"block": agentHead + deepBlock("a", 1400),
	} {
		root := writeTree(t, map[string]string{agentYAML: body})
		home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Validate(home, project, "")
		runtime.ReadMemStats(&after)
		ps := problemsOf(t, err)
		if len(ps) != 1 || ps[0].Code != CodeNesting {
			t.Fatalf("%s: %v", name, err)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 16<<20 {
			t.Errorf("%s: the refusal allocated %d MiB", name, d>>20)
		}
	}
}
