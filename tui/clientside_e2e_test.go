package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

// The client's side in a real terminal: the demo server asks for a
// sampling reply (the dialog shows the request; the person writes the
// reply), sends the person to a punycode url (the safety screen warns and
// shows it decoded; o opens it with $BROWSER, here a script that records
// its argument), and lists the roots after the person added one (R); the
// export holds the sampling request and its answer.
func TestE2ETmuxClientSide(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	project := filepath.Join(dir, "project")
	extra := filepath.Join(dir, "extra")
	opened := filepath.Join(dir, "opened")
	browser := filepath.Join(dir, "browser.sh")
	for _, d := range []string{project, extra} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(browser, []byte("#!/bin/sh\nprintf '%s\\n' \"$1\" >> "+opened+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`env -u CI -u NO_COLOR RELAVIUM_HOME=%s BROWSER=%s TERM=xterm-256color %s --project %s demo; sleep 600`,
		home, browser, bin, project)
	tm := startTmux(t, "e2e-cs", 220, 40, dir, script)

	tm.waitFor("the consent dialog", "Start a local program?", "[A] Approve & remember")
	tm.answer("A")
	tm.waitFor("the demo server ready", "● demo", "✓ test_sampling")

	// callTool calls a tool from the servers pane (first) or from the call
	// pane (after a call).
	first := true
	callTool := func(name, firstField string) {
		t.Helper()
		if first {
			tm.keys("Tab", "/", "C-u")
			first = false
		} else {
			tm.keys("BTab", "/", "C-u")
		}
		tm.text(name)
		tm.keys("Enter", "Enter")
		tm.waitFor("the "+name+" form", "CALL · mcp_demo_"+name)
		if firstField != "" {
			tm.text(firstField)
		}
		tm.keys("C-s")
		tm.waitFor("the call confirmation", "Call mcp_demo_"+name+"?", "[y] This call")
		tm.answer("y")
	}

	// Sampling: the whole request is shown; the person's reply is sent.
	callTool("test_sampling", "Capital of France?")
	tm.waitFor("the sampling dialog", "demo asks for a sampling reply", "you are the model", "max tokens 100",
		"messages (1)", "[user] Capital of France?", "role assistant", "stop reason endTurn", "[ctrl+s] Send reply")
	tm.answer("C-e") // the stop reason cycles
	tm.waitFor("the stop reason changed", "stop reason stopSequence")
	tm.text("Paris")
	tm.keys("C-s")
	tm.waitFor("the server's answer", "LLM response: Paris", "sampling sampling-1 answered: accept (assistant, stopSequence, 5 bytes)")

	// URL elicitation: screened, warned, opened only on o.
	callTool("sign_in", "https://xn--80ak6aa92e.com/login")
	screen := tm.waitFor("the url safety screen", "demo asks you to open a page", "https://xn--80ak6aa92e.com", "punycode",
		"аррӏе.com", "Nothing is opened until you press o.", "[o] Open in browser")
	if _, err := os.Stat(opened); err == nil {
		t.Fatalf("the page was opened before o was pressed:\n%s", screen)
	}
	tm.answer("o")
	tm.waitFor("the server's answer", "Sign-in answer: accept")
	if b, err := os.ReadFile(opened); err != nil || strings.TrimSpace(string(b)) != "https://xn--80ak6aa92e.com/login" {
		t.Fatalf("$BROWSER got %q (%v), want the url", b, err)
	}

	// Roots: the project is the default; R adds a directory; the server
	// sees both.
	tm.keys("R")
	realProject, _ := filepath.EvalSymlinks(project)
	tm.waitFor("the roots dialog", "Roots", realProject, "[a] Add a directory")
	tm.answer("a")
	tm.text(extra)
	tm.keys("Enter")
	realExtra, _ := filepath.EvalSymlinks(extra)
	tm.waitFor("the added root", "roots changed", realExtra)
	tm.answer("Escape")
	callTool("list_roots", "")
	tm.waitFor("the roots the server sees", "2 root(s):", "file://"+realProject, "file://"+realExtra)

	// The export keeps the sampling request and its answer.
	tm.keys("e")
	tm.waitFor("the export", "session exported to")
	exported := readExport(t, filepath.Join(home, "sessions"))
	for _, want := range []string{`"type":"sampling:requested"`, `"Capital of France?"`, `"type":"sampling:resolved"`, `"text":"Paris"`, `"stop_reason":"stopSequence"`} {
		if !strings.Contains(exported, want) {
			t.Fatalf("the export lacks %s", want)
		}
	}
	tm.keys("q")
}
