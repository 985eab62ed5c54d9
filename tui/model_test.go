package tui

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/muesli/termenv"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/eventstrip"
)

func boolp(b bool) *bool { return &b }

// demoTools is a small catalogue with every badge.
func demoTools() []engine.ToolDef {
	return []engine.ToolDef{
		{Tool: "echo", Description: "Sends the message back.", Annotations: engine.Annotations{ReadOnly: boolp(true)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string","description":"what to echo"}},"required":["message"]}`)},
		{Tool: "long_operation", Description: "Works for a while, reporting progress.", Annotations: engine.Annotations{ReadOnly: boolp(true)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"steps":{"type":"integer","default":5},"duration_ms":{"type":"integer","default":1000}}}`)},
		{Tool: "create_note", Description: "Stores a note.", Annotations: engine.Annotations{ReadOnly: boolp(false), Destructive: boolp(false)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"},"body":{"type":"string"},"tags":{"type":"array","items":{"enum":["work","home"]}},"pinned":{"type":"boolean"},"priority":{"enum":["low","high"],"default":"low"}},"required":["title"]}`)},
		{Tool: "delete_file", Description: "Pretends to delete a file.\x1b[31m red \u202Eevil", Annotations: engine.Annotations{ReadOnly: boolp(false), Destructive: boolp(true)}, Changed: true,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
	}
}

func demoSkipped() []engine.SkippedTool {
	return []engine.SkippedTool{{Tool: "remote_ref_schema", Code: "schema_remote_ref", Detail: `inputSchema $ref "https://example.com/s.json" is remote; nothing is fetched`}}
}

// ready starts a session with the demo server approved and connected.
func ready(t *testing.T, w, h int) *harness {
	t.Helper()
	f := newFake(t)
	f.addStdio("demo", "demo-server")
	// The person's tools_auto_approve for the two read-only demo tools:
	// calls of them go ahead unasked, calls of the others ask.
	f.autoApprove["demo"] = []string{"echo", "long_operation"}
	f.setTools("demo", demoTools(), demoSkipped())
	hs := newHarness(t, f, w, h)
	hs.until("the consent dialog", func() bool { _, ok := hs.m.topDialog().(*dialog.Consent); return ok })
	hs.key("o")
	hs.until("demo ready", func() bool { return hs.m.server("demo").state == engine.StateReady && len(hs.m.browse.tools) == 4 })
	return hs
}

func TestConsentDialogShowsEverythingAndTheDiff(t *testing.T) {
	f := newFake(t)
	f.addStdio("demo", "demo-server", "--verbose", "a much longer argument that has to wrap inside the dialog because it is long", "x")
	f.addHTTP("docs")
	f.grant(consent.Declaration{Name: "demo", Command: "/bin/sh", Args: []string{"demo-server"}, Cwd: "/",
		Env: []consent.EnvVar{{Name: "API_TOKEN", Value: "{{secrets.api_token}}"}, {Name: "OLD", Value: "x"}}})
	f.setTools("demo", demoTools(), demoSkipped())
	h := newHarness(t, f, 120, 34)
	h.until("the consent dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
	h.until("docs ready", func() bool { return h.m.server("docs").state == engine.StateReady })
	h.pump(30 * time.Millisecond)
	h.m.log.strip = eventstrip.Strip{} // the two servers' events race each other: their order is not this frame's subject
	h.golden("consent_diff_120x34")
	// The same dialog in colour: added lines in the diff-add colour, removed
	// in the diff-del colour.
	st := testStyles(termenv.ANSI256, themes.Dark)
	frame := strings.Join(dialog.Overlay(strings.Split(h.view(), "\n"), h.m.topDialog().View(st, 120, 34), 120, 34), "\n")
	add := st.DiffAdd.Render("+ args[1] --verbose")
	del := st.DiffDel.Render("- env OLD (literal)")
	if !strings.Contains(frame, add) || !strings.Contains(frame, del) {
		t.Fatalf("the diff lines are not coloured:\n%q", frame)
	}
}

func TestConsentAnswersGoThroughPackageConsent(t *testing.T) {
	f := newFake(t)
	f.addStdio("a", "one")
	f.addStdio("b", "two")
	h := newHarness(t, f, 120, 30)
	// One dialog at a time, in declaration order.
	h.until("a's dialog", func() bool {
		d, ok := h.m.topDialog().(*dialog.Consent)
		return ok && d.Dec.Server.Name == "a"
	})
	if n := len(h.m.dialogs.stack); n != 1 {
		t.Fatalf("%d dialogs open, want one at a time", n)
	}
	h.key("A") // approve & remember: a grant in the store
	// b's dialog can open before a's answer is back; wait for both, so the
	// status line ends on b's denial, not on a late "a: approved".
	h.until("b's dialog and a's answer", func() bool {
		d, ok := h.m.topDialog().(*dialog.Consent)
		return ok && d.Dec.Server.Name == "b" && h.m.server("a").decision == nil
	})
	h.key("esc") // Esc denies
	h.until("a ready, b denied", func() bool {
		return h.m.server("a").state == engine.StateReady && h.m.server("b").state == stateDenied
	})
	grants, err := f.store.Fold()
	if err != nil || grants.Len() != 1 {
		t.Fatalf("want one remembered grant (a), got %v %v", grants, err)
	}
	h.golden("consent_denied_120x30")
	// A denied server can be asked again: select it, press a.
	h.m.servers.sel = 1
	h.key("a")
	h.until("b asked again", func() bool {
		d, ok := h.m.topDialog().(*dialog.Consent)
		return ok && d.Dec.Server.Name == "b"
	})
	h.key("o")
	h.until("b ready", func() bool { return h.m.server("b").state == engine.StateReady })
	if got := strings.Join(f.answers, ","); got != "a:approved and remembered,b:denied,b:approved once" {
		t.Fatalf("answers = %s", got)
	}
	if grants, _ := f.store.Fold(); grants.Len() != 1 {
		t.Fatal("approve once wrote a grant")
	}
}

func TestStoreFailedClosedShowsABanner(t *testing.T) {
	f := newFake(t)
	f.addStdio("demo", "demo-server")
	if err := os.WriteFile(f.store.Path(), []byte("{not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, f, 100, 24)
	h.until("the banner", func() bool { return h.m.status.banner != "" })
	// (no golden: the message names the temp store path, whose length varies)
	frame := h.view()
	checkFrame(t, frame, 100, 24)
	for _, want := range []string{"remembered grants are not trusted", "line 1", "not valid"} {
		if !strings.Contains(frame, want) {
			t.Fatalf("the frame lacks %q:\n%s", want, frame)
		}
	}
	h.key("esc")
	frame = h.view()
	if !strings.Contains(frame, "⚠ remembered consent grants are not trusted") {
		t.Fatalf("the banner went away with the dialog:\n%s", frame)
	}
}

func TestToolsPaneAndDetails(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab")
	h.golden("tools_120x30")
	h.key("down", "down", "down", "i")
	if _, ok := h.m.topDialog().(*dialog.Text); !ok {
		t.Fatal("i opened no details")
	}
	frame := h.view()
	for _, want := range []string{"external text from MCP server", "destructive", "advisory", "changed since", "input schema", `"path"`} {
		if !strings.Contains(frame, want) {
			t.Fatalf("details lack %q:\n%s", want, frame)
		}
	}
	if strings.ContainsAny(frame, "\x1b\u202e") {
		t.Fatalf("server text reached the terminal unsanitized: %q", frame)
	}
	h.golden("tool_details_120x30")
	h.key("esc", "down", "i")
	h.golden("skipped_details_120x30")
}

func TestFilter(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "/")
	h.typeText("note")
	h.key("enter")
	rows := h.m.browse.listRows()
	if len(rows) != 1 || rows[0].tool.Tool != "create_note" {
		t.Fatalf("filter rows: %+v", rows)
	}
	h.key("enter")
	if h.m.call.form == nil || h.m.call.formFor.tool.Tool != "create_note" {
		t.Fatal("enter on the filtered row opened no form")
	}
}

func TestFormFromSchemaAndToolConfirm(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "down", "down", "enter")
	h.typeText("groceries")
	h.key("down", "down", "right", " ", "down", "right", "right")
	h.golden("form_create_note_120x30")
	h.key("ctrl+s")
	h.until("the tool confirmation", func() bool { _, ok := h.m.topDialog().(*dialog.ToolConfirm); return ok })
	h.golden("tool_confirm_120x30")
	h.key("A") // always for this definition
	h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
	if got := string(h.m.call.shownJob().args); got != `{"title":"groceries","tags":["home"],"pinned":true,"priority":"low"}` {
		t.Fatalf("arguments = %s", got)
	}
	// Remembered for this definition (through package consent): the next
	// call does not ask.
	h.until("the approval remembered", func() bool {
		set, err := h.f.approvals.Fold(nil)
		return err == nil && set.Approved(consent.ToolKey{Server: "demo", Tool: "create_note", Digest: h.m.browse.tools[2].Digest})
	})
	h.key("ctrl+s")
	h.until("a second call", func() bool { return len(h.m.call.jobs) == 2 && h.m.call.jobs[1].finished() })
	if h.m.topDialog() != nil {
		t.Fatal("asked again after always for this definition")
	}
}

func TestToolConfirmEscDenies(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "down", "down", "down", "enter")
	h.typeText("/etc/passwd")
	h.key("ctrl+s")
	h.until("the tool confirmation", func() bool { _, ok := h.m.topDialog().(*dialog.ToolConfirm); return ok })
	if !strings.Contains(h.view(), "The hint is advisory") {
		t.Fatalf("the confirmation does not say the hint is advisory:\n%s", h.view())
	}
	h.key("esc")
	h.pump(50e6)
	if len(h.m.call.jobs) != 0 {
		t.Fatal("Esc on the confirmation still called the tool")
	}
	if !strings.Contains(h.m.status.text, "denied") {
		t.Fatalf("status = %q", h.m.status.text)
	}
}

func TestValidationErrorsInline(t *testing.T) {
	h := ready(t, 120, 30)
	h.f.validate = func(id engine.ToolID, args json.RawMessage) error {
		return &discovery.Error{Base: fault.Base{ErrCode: discovery.CodeInvalidArgs, Msg: "arguments for mcp_demo_echo: missing properties: [\"message\"]"}, Server: "demo", Pointer: "/message", Rule: "required"}
	}
	h.key("tab", "enter", "ctrl+s")
	h.until("the inline error", func() bool { return h.m.call.form.Fields[0].Err != "" })
	if len(h.m.call.jobs) != 0 {
		t.Fatal("invalid arguments were dispatched")
	}
	h.golden("validation_120x30")
	// A field that does not parse is refused before Validate runs.
	h.m.call.form.Fields[0].Spec.Types = []string{"integer"}
	h.typeText("12x")
	h.key("ctrl+s")
	if !strings.Contains(h.m.call.form.Fields[0].Err, "not an integer") {
		t.Fatalf("field error = %q", h.m.call.form.Fields[0].Err)
	}
}

func TestRawJSONToggle(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "enter")
	h.typeText("hi")
	h.key("ctrl+t")
	if !h.m.call.form.Raw || !strings.Contains(h.m.call.form.RawIn.Value(), `"message": "hi"`) {
		t.Fatalf("raw JSON = %q", h.m.call.form.RawIn.Value())
	}
	h.m.call.form.RawIn.SetValue(`{"message": "from raw", "extra": 1}`)
	h.key("ctrl+t")
	if !h.m.call.form.Raw || !strings.Contains(h.m.call.form.Err, "extra") {
		t.Fatalf("unknown key should keep raw mode: raw=%v err=%q", h.m.call.form.Raw, h.m.call.form.Err)
	}
	h.key("ctrl+s")
	h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
	if got := string(h.m.call.shownJob().args); got != `{"message": "from raw", "extra": 1}` {
		t.Fatalf("raw arguments sent = %s", got)
	}
}

// The live backend reports a denial on the event stream as a failed server
// with E308 (so --events and the export carry it). Whichever arrives last,
// that event or the answer, the row stays denied and a asks again.
func TestDeniedServerEventKeepsItAskable(t *testing.T) {
	f := newFake(t)
	f.addStdio("b", "two")
	h := newHarness(t, f, 120, 30)
	h.until("b's dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
	h.pump(30 * time.Millisecond) // the needs-consent event too
	h.key("esc")
	h.until("b denied", func() bool { return h.m.server("b").state == stateDenied })
	before := h.batches
	f.emit(engine.EventServer, engine.ServerData{Server: "b", State: engine.StateFailed, Transport: "stdio",
		ErrorCode: consent.CodeDenied, Error: "consent denied"})
	h.until("the event applied", func() bool { return h.batches > before })
	h.pump(30 * time.Millisecond)
	if st := h.m.server("b").state; st != stateDenied {
		t.Fatalf("after the E308 event b is %q, want %q", st, stateDenied)
	}
	h.m.servers.sel = 0
	h.key("a")
	h.until("b asked again", func() bool {
		d, ok := h.m.topDialog().(*dialog.Consent)
		return ok && d.Dec.Server.Name == "b"
	})
}

// Two servers declaring the same program (same digest): approving the
// first approves the program, so the second is decided afresh through
// package consent and connects without asking again.
func TestApprovingADigestCoversItsTwin(t *testing.T) {
	for _, answer := range []string{"A", "o"} {
		t.Run(answer, func(t *testing.T) {
			f := newFake(t)
			f.addStdio("alpha", "demo-server")
			f.addStdio("beta", "demo-server")
			h := newHarness(t, f, 120, 30)
			h.until("alpha's dialog", func() bool {
				d, ok := h.m.topDialog().(*dialog.Consent)
				return ok && d.Dec.Server.Name == "alpha"
			})
			h.pump(30 * time.Millisecond)
			h.key(answer)
			h.until("both ready", func() bool {
				if d, ok := h.m.topDialog().(*dialog.Consent); ok {
					t.Fatalf("asked again for %s, whose program was just approved", d.Dec.Server.Name)
				}
				return h.m.server("alpha").state == engine.StateReady && h.m.server("beta").state == engine.StateReady
			})
			if len(f.answers) != 1 {
				t.Fatalf("answers = %v, want the one", f.answers)
			}
		})
	}
}

// Once the arguments validate, the earlier "not sent" error leaves the
// status line (it would sit under the confirmation or the running call).
func TestValidArgumentsClearTheNotSentStatus(t *testing.T) {
	h := ready(t, 120, 30)
	fail := true
	h.f.validate = func(id engine.ToolID, args json.RawMessage) error {
		if fail {
			return &discovery.Error{Base: fault.Base{ErrCode: discovery.CodeInvalidArgs, Msg: "bad"}, Server: "demo", Pointer: "/title", Rule: "required"}
		}
		return nil
	}
	h.key("tab", "down", "down", "enter", "ctrl+s") // create_note: not read-only, asks first
	h.until("the inline error", func() bool { return h.m.call.form.Fields[0].Err != "" })
	if !strings.Contains(h.m.status.text, "not sent") {
		t.Fatalf("status = %q", h.m.status.text)
	}
	fail = false
	h.typeText("hi")
	h.key("ctrl+s")
	h.until("the confirmation", func() bool { _, ok := h.m.topDialog().(*dialog.ToolConfirm); return ok })
	if strings.Contains(h.m.status.text, "not sent") {
		t.Fatalf("valid arguments awaiting confirmation still say %q", h.m.status.text)
	}
}

// TestFormRefusesDeepJSON: JSON typed in the form (raw mode, or a field)
// that nests past 256 levels is refused inline before it is decoded, and
// nothing is dispatched.
func TestFormRefusesDeepJSON(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "enter")
	h.key("ctrl+t")
	h.m.call.form.RawIn.SetValue(`{"message":` + strings.Repeat("[", 100000))
	h.key("ctrl+t") // back to the fields: refused
	if !h.m.call.form.Raw || !strings.Contains(h.m.call.form.Err, "nesting deeper than 256 levels") {
		t.Fatalf("toggle back: raw=%v err=%q", h.m.call.form.Raw, h.m.call.form.Err)
	}
	h.m.call.form.Err = ""
	h.key("ctrl+s")
	if !strings.Contains(h.m.call.form.Err, "raw JSON: nesting deeper than 256 levels at line 1, column 267") || len(h.m.call.jobs) != 0 {
		t.Fatalf("ctrl+s: err=%q jobs=%d", h.m.call.form.Err, len(h.m.call.jobs))
	}
	h.key("ctrl+t")
	h.m.call.form.Raw = false
	h.m.call.form.Fields[0].Spec.Types = []string{"array"}
	h.m.call.form.Fields[0].Input.SetValue(strings.Repeat("[", 30000))
	h.key("ctrl+s")
	if !strings.Contains(h.m.call.form.Fields[0].Err, "nesting deeper than 256 levels") || len(h.m.call.jobs) != 0 {
		t.Fatalf("field: err=%q jobs=%d", h.m.call.form.Fields[0].Err, len(h.m.call.jobs))
	}
}

// The tools filter is per server: drilling into another server starts
// unfiltered; coming back finds the filter as it was left.
func TestFilterIsPerServer(t *testing.T) {
	f := newFake(t)
	f.addHTTP("docs")
	f.addHTTP("wiki")
	f.setTools("docs", demoTools(), nil)
	f.setTools("wiki", demoTools(), nil)
	h := newHarness(t, f, 120, 34)
	h.until("both ready", func() bool {
		return h.m.server("docs").state == engine.StateReady && h.m.server("wiki").state == engine.StateReady
	})
	h.key("enter", "/")
	h.typeText("echo")
	h.key("enter")
	if got := h.m.browse.filter.Value(); got != "echo" {
		t.Fatalf("filter on docs: %q", got)
	}
	h.key("shift+tab", "down")
	if got := h.m.servers.current(); got != "wiki" {
		t.Fatalf("selected %q", got)
	}
	if got := h.m.browse.filter.Value(); got != "" {
		t.Fatalf("wiki starts filtered: %q", got)
	}
	h.key("up")
	if got := h.m.browse.filter.Value(); got != "echo" {
		t.Fatalf("docs' filter was not kept: %q", got)
	}
}

// z gives the focused pane the whole width at any size, z again shows the
// three panes; the frame stays exactly the terminal's size.
func TestZoomGivesTheFocusedPaneTheWidth(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "tab") // the call pane
	if !strings.Contains(h.view(), "│") {
		t.Fatal("three panes expected before z")
	}
	h.key("z")
	frame := h.view()
	checkFrame(t, frame, 120, 30)
	lines := strings.Split(frame, "\n")
	if !strings.Contains(lines[1], "SERVERS │ TOOLS │ CALL") || strings.Contains(strings.Join(lines[2:len(lines)-2], "\n"), "│") {
		t.Fatalf("z did not zoom the call pane:\n%s", frame)
	}
	h.key("tab")
	if h.m.focus != paneServers || !h.m.zoomed {
		t.Fatal("tab while zoomed did not move the zoom to the next pane")
	}
	h.key("z")
	if h.m.zoomed || !strings.Contains(h.view(), "SERVERS 1 ─") {
		t.Fatalf("z again did not show every pane:\n%s", h.view())
	}
}

// i on a server shows what it said of itself at initialize: serverInfo,
// capabilities, the era, and its instructions cleaned.
func TestServerDetailsShowInitialize(t *testing.T) {
	h := ready(t, 120, 40)
	h.key("i")
	h.until("the details dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Text); return ok })
	frame := h.view()
	for _, want := range []string{"serverInfo", "demo-server", "The demo server", "1.2.3", "https://example.com/demo", "tools (listChanged)", "resources (subscribe)", "instructions", "Call echo first."} {
		if !strings.Contains(frame, want) {
			t.Fatalf("the details lack %q:\n%s", want, frame)
		}
	}
	if strings.Contains(frame, "\x1b[31m red") {
		t.Fatal("the server's instructions reached the frame raw")
	}
}
