package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

// No state without an end: a VS Code server whose env names an unset
// ${env:VAR} fails at once with E880 (it sat at resolving); with the
// variable set, its ${input:} secret is asked in a masked dialog, and the
// server connects with what was typed (never shown).
func TestE2ETmuxInputsAndUnsetEnv(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(project, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	mcpJSON := fmt.Sprintf(`{"inputs":[{"id":"tok","type":"promptString","description":"API token","password":true}],
 "servers":{"demo":{"type":"stdio","command":%q,"args":["demo-server"],"env":{"TOKEN":"${input:tok}","MODE":"${env:RELAVIUM_TEST_UNSET_MODE}"}}}}`, bin)
	if err := os.WriteFile(filepath.Join(project, ".vscode", "mcp.json"), []byte(mcpJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name, extra string) *tmuxTerm {
		script := fmt.Sprintf(`cd %s && env -u CI -u NO_COLOR %s RELAVIUM_HOME=%s TERM=xterm-256color %s; sleep 600`, project, extra, home, bin)
		return startTmux(t, name, 120, 30, dir, script)
	}
	tm := run("unset", "")
	tm.waitFor("the consent dialog", "Start a local program?")
	tm.answer("o")
	tm.waitFor("the unset variable's failure", "✗ demo", "E880", "RELAVIUM_TEST_UNSET_MODE")

	tm2 := run("input", "RELAVIUM_TEST_UNSET_MODE=fast")
	tm2.waitFor("the consent dialog", "Start a local program?")
	tm2.answer("o")
	tm2.waitFor("the masked secret dialog", "Secrets for demo", "API token")
	tm2.answer()
	tm2.text("s3cr3t-typed")
	screen := tm2.pane()
	if strings.Contains(screen, "s3cr3t-typed") {
		t.Fatalf("the typed secret is shown:\n%s", screen)
	}
	tm2.keys("Enter")
	tm2.waitFor("the server connected with it", "● demo", "✓ add_numbers")
}

// An ${input:id} that the client file does not declare (a .mcp.json has no
// inputs list) is asked for as a declared one is: the same masked dialog,
// naming the id (there is no description to show), and the server
// connects with what was typed (never shown).
func TestE2ETmuxUndeclaredInputIsAsked(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	mcpJSON := fmt.Sprintf(`{"mcpServers":{"demo":{"command":%q,"args":["demo-server"],"env":{"TOKEN":"Bearer ${input:undeclared-tok}"}}}}`, bin)
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(mcpJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`cd %s && env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s; sleep 600`, project, home, bin)
	tm := startTmux(t, "undeclared", 120, 30, dir, script)
	tm.waitFor("the consent dialog", "Start a local program?")
	tm.answer("o")
	tm.waitFor("the masked secret dialog", "Secrets for demo", "undeclared-tok", "[]")
	tm.answer()
	tm.text("s3cr3t-typed")
	tm.waitFor("the value typed as dots", "[••••••••••••]")
	if screen := tm.pane(); strings.Contains(screen, "s3cr3t-typed") {
		t.Fatalf("the typed secret is shown:\n%s", screen)
	}
	tm.keys("Enter")
	tm.waitFor("the server connected with it", "● demo", "✓ add_numbers")
}

// Declared and undeclared inputs of one server are asked in one masked
// dialog: the declared with its description, the undeclared by its id;
// every value is needed before it connects.
func TestE2ETmuxDeclaredAndUndeclaredInputs(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(project, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	mcpJSON := fmt.Sprintf(`{"inputs":[{"id":"tok","type":"promptString","description":"API token","password":true}],
 "servers":{"demo":{"type":"stdio","command":%q,"args":["demo-server"],"env":{"EXTRA":"${input:extra}","TOKEN":"${input:tok}","AGAIN":"x-${input:extra}"}}}}`, bin)
	if err := os.WriteFile(filepath.Join(project, ".vscode", "mcp.json"), []byte(mcpJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`cd %s && env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s; sleep 600`, project, home, bin)
	tm := startTmux(t, "mixed", 120, 30, dir, script)
	tm.waitFor("the consent dialog", "Start a local program?")
	tm.answer("o")
	tm.waitFor("one dialog for both", "Secrets for demo", "extra", "tok  API token")
	tm.answer()
	tm.text("first-typed")
	tm.keys("Enter") // the other value is still empty: it moves there, does not connect
	tm.text("second-typed")
	tm.waitFor("both typed as dots", "[•••••••••••]", "[••••••••••••]")
	if screen := tm.pane(); strings.Contains(screen, "first-typed") || strings.Contains(screen, "second-typed") {
		t.Fatalf("a typed secret is shown:\n%s", screen)
	}
	tm.keys("Enter")
	tm.waitFor("the server connected with them", "● demo", "✓ add_numbers")
}
