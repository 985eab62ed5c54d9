package tui

import (
	"encoding/json"
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

func itoa(i int) string { return strconv.Itoa(i) }

// toolConfirmDialog asks before a call that nothing the person said
// beforehand (tools_auto_approve, a remembered approval of this exact
// definition) covers: this call, always for this definition, or no. The
// server's annotations are shown as its own claim and never skip it. For a
// definition changed since it was accepted, "always" is not offered.
type toolConfirmDialog struct {
	tool  engine.ToolDef
	args  json.RawMessage
	focus int
	box   dialogBox
	// then is what runs once allowed (the call, or its replay).
	then pendingCall
}

// pendingCall is a call waiting for the person's go-ahead.
type pendingCall struct {
	tool engine.ToolDef
	args json.RawMessage
}

type toolConfirmAction struct {
	call   pendingCall
	allow  bool
	always bool // remember an approval of this exact definition
}

var (
	toolConfirmButtons        = []string{"[y] This call", "[a] Always for this definition", "[n] No"}
	toolConfirmChangedButtons = []string{"[y] This call", "[n] No"}
)

func (d *toolConfirmDialog) buttons() []string {
	if d.tool.Changed {
		return toolConfirmChangedButtons
	}
	return toolConfirmButtons
}

// decide answers with button i of d.buttons().
func (d *toolConfirmDialog) decide(i int) action {
	n := len(d.buttons())
	return toolConfirmAction{call: d.then, allow: i < n-1, always: n == 3 && i == 1}
}

func (d *toolConfirmDialog) handle(msg tea.KeyMsg, _ keyMap) (action, tea.Cmd) {
	n := len(d.buttons())
	d.focus = min(d.focus, n-1)
	switch msg.String() {
	case "y":
		return d.decide(0), nil
	case "a":
		if n == 3 {
			return d.decide(1), nil
		}
	case "n", "d", "esc":
		return d.decide(n - 1), nil
	case "left", "shift+tab":
		d.focus = (d.focus + n - 1) % n
	case "right", "tab":
		d.focus = (d.focus + 1) % n
	case "enter":
		return d.decide(d.focus), nil
	default:
		scrollKey(msg, &d.box.scroll)
	}
	return nil, nil
}

// hintText describes the server's annotation of a tool.
func hintText(a engine.Annotations) string {
	switch {
	case a.IsReadOnly():
		return "read-only"
	case a.IsDestructive():
		if a.Destructive == nil {
			return "not annotated read-only (MCP treats it as possibly destructive)"
		}
		return "destructive"
	}
	return "writes (not destructive)"
}

func (d *toolConfirmDialog) view(st *themes.Styles, w, h int) string {
	dw := dialogWidth(w, 90)
	iw := innerWidth(dw)
	var body []string
	body = append(body, labelled(st, "tool", st.Bold.Render(render.ServerLine(d.tool.Name)), iw)...)
	body = append(body, labelled(st, "server", render.ServerLine(d.tool.Server), iw)...)
	hint := hintText(d.tool.Annotations)
	style := st.BadgeWrite
	if d.tool.Annotations.IsDestructive() {
		style = st.BadgeDestructive
	}
	body = append(body, labelled(st, "hint", style.Render(hint), iw)...)
	body = append(body, render.WrapIndent(st.Advisory.Render("The hint is advisory: it is the server's own annotation, and a server may be wrong or lie. It never skips this question."), iw, "")...)
	if d.tool.Changed {
		body = append(body, render.Wrap(st.BadgeChanged.Render("⚑ this tool's definition changed since you accepted it: review and accept it (a on the tool) before remembering an approval"), iw)...)
	}
	body = append(body, "")
	body = append(body, labelled(st, "args", render.ServerLine(string(d.args)), iw)...)
	d.box.title = "Call " + render.ServerLine(d.tool.Name) + "?"
	d.box.body = body
	d.box.actions = buttons(st, d.buttons(), min(d.focus, len(d.buttons())-1)) + st.Muted.Render("  esc = no")
	return d.box.render(st, dw, h)
}

// confirmDialog is a yes/no confirmation with a side effect, a reason and
// a plan: a workflow gate, or a confirmation_required answer of relavium's
// own machine surface (a tool of `relavium mcp serve`).
type confirmDialog struct {
	title      string
	sideEffect string
	reason     string
	plan       json.RawMessage
	focus      int
	box        dialogBox
	// yes and no are what to do on each answer.
	yes, no action
}

var confirmButtons = []string{"[y] Confirm", "[n] Refuse"}

func (d *confirmDialog) handle(msg tea.KeyMsg, _ keyMap) (action, tea.Cmd) {
	switch msg.String() {
	case "y":
		return d.yes, nil
	case "n", "esc":
		return d.no, nil
	case "left", "right", "tab", "shift+tab":
		d.focus = 1 - d.focus
	case "enter":
		if d.focus == 0 {
			return d.yes, nil
		}
		return d.no, nil
	default:
		scrollKey(msg, &d.box.scroll)
	}
	return nil, nil
}

func (d *confirmDialog) view(st *themes.Styles, w, h int) string {
	dw := dialogWidth(w, 100)
	iw := innerWidth(dw)
	var body []string
	if d.sideEffect != "" {
		style := st.Warn
		if d.sideEffect == "destructive" {
			style = st.BadgeDestructive
		}
		body = append(body, labelled(st, "effect", style.Render(render.ServerLine(d.sideEffect)), iw)...)
	}
	if d.reason != "" {
		for i, l := range render.SplitLines(render.ServerText(d.reason)) {
			label := ""
			if i == 0 {
				label = "reason"
			}
			body = append(body, labelled(st, label, l, iw)...)
		}
	}
	if len(d.plan) > 0 && string(d.plan) != "null" {
		body = append(body, "", st.Muted.Render("plan"))
		for _, l := range render.JSONLines(st, d.plan) {
			body = append(body, render.WrapIndent("  "+l, iw, "    ")...)
		}
	}
	d.box.title = d.title
	d.box.body = body
	d.box.actions = buttons(st, confirmButtons, d.focus) + st.Muted.Render("  esc = refuse")
	return d.box.render(st, dw, h)
}
