package invoke

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/invoke/cmd/mcp"
	runcmd "github.com/relavium/relavium/invoke/cmd/run"
	"github.com/relavium/relavium/workflow"
)

// columnsAlign reports whether every line holds want at the same rune
// column: a long cell must widen its column, never push the next one.
func columnsAlign(t *testing.T, text string, rows []string, want func(row string) string) {
	t.Helper()
	col := -1
	for _, r := range rows {
		line := ""
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, r) {
				line = l
				break
			}
		}
		i := strings.Index(line, want(r))
		if i < 0 {
			t.Fatalf("no line holds %q then %q:\n%s", r, want(r), text)
		}
		c := utf8.RuneCountInString(line[:i])
		if col >= 0 && c != col {
			t.Fatalf("%q starts at column %d, the row above at %d:\n%s", want(r), c, col, text)
		}
		col = c
	}
}

func TestWorkflowListAlignsLongCells(t *testing.T) {
	long := make([]workflow.Input, 6)
	for i := range long {
		long[i] = workflow.Input{Name: "input_number_" + string(rune('a'+i)), Type: "string", Required: true}
	}
	l := &runcmd.WorkflowList{Project: t.TempDir(), Workflows: []runcmd.WorkflowRow{
		{ID: "short", Trigger: "manual", SideEffect: "read", Description: "first"},
		{ID: "a-workflow-id-longer-than-twenty", Trigger: "mcp_call", SideEffect: "write", Inputs: long, Description: "second"},
	}}
	var b strings.Builder
	if err := l.WriteHuman(&b); err != nil {
		t.Fatal(err)
	}
	desc := map[string]string{"ID": "DESCRIPTION", "short": "first", "a-workflow-id-longer-than-twenty": "second"}
	columnsAlign(t, b.String(), []string{"ID", "short", "a-workflow-id-longer-than-twenty"}, func(r string) string { return desc[r] })
}

func TestMCPListAlignsLongNames(t *testing.T) {
	l := &mcp.MCPList{
		Servers: []host.ServerStatus{
			{Name: "s", Transport: "stdio", PID: 1, Protocol: "2025-11-25", State: engine.StateReady, Tools: 1},
			{Name: "a-server-name-much-longer-than-sixteen", Transport: "stdio", PID: 22, Protocol: "2025-11-25", State: engine.StateReady, Tools: 1},
		},
		Tools: []mcp.MCPTool{
			{Name: "mcp_s_t", Description: "short"},
			{Name: "mcp_a-server-name-much-longer-than-sixteen_a_tool_with_a_long_name", Description: "long"},
		},
	}
	var b strings.Builder
	if err := l.WriteHuman(&b); err != nil {
		t.Fatal(err)
	}
	columnsAlign(t, b.String(), []string{"● s ", "● a-server-name"}, func(string) string { return "stdio" })
	columnsAlign(t, b.String(), []string{"mcp_s_t", "mcp_a-server"}, func(string) string { return "⚠ destructive" })
	if strings.Contains(b.String(), " \n") {
		t.Errorf("trailing spaces:\n%q", b.String())
	}
}

// The descriptions mcp ls shows are the servers' own text: each server's
// first one comes after the line that says so (docs/mcp-integration.md
// "Untrusted definitions").
func TestMCPListLabelsServerText(t *testing.T) {
	l := &mcp.MCPList{Tools: []mcp.MCPTool{
		{Name: "mcp_a_x", Server: "a", Description: "first of a"},
		{Name: "mcp_a_y", Server: "a", Description: "second of a"},
		{Name: "mcp_b_z", Server: "b", Description: "only of b"},
		{Name: "mcp_c_q", Server: "c"}, // nothing shown, nothing to label
	}}
	var b strings.Builder
	if err := l.WriteHuman(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	la, lb := sanitize.ExternalLabel("a"), sanitize.ExternalLabel("b")
	if strings.Count(out, la) != 1 || strings.Count(out, lb) != 1 || strings.Contains(out, sanitize.ExternalLabel("c")) ||
		strings.Index(out, la) > strings.Index(out, "first of a") || strings.Index(out, lb) > strings.Index(out, "only of b") {
		t.Fatalf("labels:\n%s", out)
	}
}

func TestMCPListWithNoServerSaysSoOnce(t *testing.T) {
	var b strings.Builder
	if err := (&mcp.MCPList{}).WriteHuman(&b); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "no MCP server is declared (add [[mcp_servers]] to .relavium/config.toml)\n" {
		t.Fatalf("%q", got)
	}
}
