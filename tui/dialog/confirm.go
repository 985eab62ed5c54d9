package dialog

import (
	"encoding/json"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// ToolConfirm asks before a call that nothing the person said
// beforehand (tools_auto_approve, a remembered approval of this exact
// definition) covers: this call, always for this definition, or no. The
// server's annotations are shown as its own claim and never skip it. For a
// definition changed since it was accepted, "always" is not offered.
type ToolConfirm struct {
	Tool  engine.ToolDef
	Args  json.RawMessage
	Focus int
	// Once, Always and No are the answers: this call, always for this
	// definition (never offered for a changed one), no.
	Once, Always, No Action
	box              box
}

var (
	toolConfirmButtons        = []string{"[y] This call", "[A] Always for this definition", "[n] No"}
	toolConfirmChangedButtons = []string{"[y] This call", "[n] No"}
)

func (d *ToolConfirm) buttons() []string {
	if d.Tool.Changed {
		return toolConfirmChangedButtons
	}
	return toolConfirmButtons
}

// decide answers with button i of d.buttons().
func (d *ToolConfirm) decide(i int) Action {
	n := len(d.buttons())
	switch {
	case i >= n-1:
		return d.No
	case n == 3 && i == 1:
		return d.Always
	}
	return d.Once
}

// Handle takes a key (Dialog).
func (d *ToolConfirm) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	n := len(d.buttons())
	d.Focus = min(d.Focus, n-1)
	switch msg.String() {
	case "y":
		return d.decide(0), nil
	case "A": // remembering takes a capital: a stray a never does
		if n == 3 {
			return d.decide(1), nil
		}
	case "n", "d", "esc":
		return d.decide(n - 1), nil
	case "left", "shift+tab":
		d.Focus = (d.Focus + n - 1) % n
	case "right", "tab":
		d.Focus = (d.Focus + 1) % n
	case "enter":
		return d.decide(d.Focus), nil
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

// View draws the dialog within the w×h screen (Dialog).
func (d *ToolConfirm) View(st *themes.Styles, w, h int) string {
	dw := Width(w, 90)
	iw := InnerWidth(dw)
	var body []string
	body = append(body, Labelled(st, "tool", st.Bold.Render(render.ServerLine(d.Tool.Name)), iw)...)
	body = append(body, Labelled(st, "server", render.ServerLine(d.Tool.Server), iw)...)
	hint := hintText(d.Tool.Annotations)
	style := st.BadgeWrite
	if d.Tool.Annotations.IsDestructive() {
		style = st.BadgeDestructive
	}
	body = append(body, Labelled(st, "hint", style.Render(hint), iw)...)
	body = append(body, render.WrapIndent(st.Advisory.Render("The hint is advisory: it is the server's own annotation, and a server may be wrong or lie. It never skips this question."), iw, "")...)
	if d.Tool.Changed {
		body = append(body, render.Wrap(st.BadgeChanged.Render("⚑ this tool's definition changed since you accepted it: review and accept it (A on the tool) before remembering an approval"), iw)...)
	}
	body = append(body, "")
	body = append(body, Labelled(st, "args", render.ServerLine(string(d.Args)), iw)...)
	d.box.title = "Call " + render.ServerLine(d.Tool.Name) + "?"
	d.box.body = body
	d.box.actions = buttons(st, d.buttons(), min(d.Focus, len(d.buttons())-1)) + st.Muted.Render("  esc = no")
	return d.box.render(st, dw, h)
}

// Confirm is a yes/no confirmation with a side effect, a reason and
// a plan: a workflow gate, or a confirmation_required answer of relavium's
// own machine surface (a tool of `relavium mcp serve`).
type Confirm struct {
	Title      string
	SideEffect string
	Reason     string
	Plan       json.RawMessage
	Focus      int
	// Yes and No are what to do on each answer.
	Yes, No Action
	box     box
}

var confirmButtons = []string{"[y] Confirm", "[n] Refuse"}

// Handle takes a key (Dialog).
func (d *Confirm) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	return yesNoKey(msg, &d.Focus, &d.box.scroll, d.Yes, d.No), nil
}

// View draws the dialog within the w×h screen (Dialog).
func (d *Confirm) View(st *themes.Styles, w, h int) string {
	dw := Width(w, 100)
	iw := InnerWidth(dw)
	var body []string
	if d.SideEffect != "" {
		style := st.Warn
		if d.SideEffect == "destructive" {
			style = st.BadgeDestructive
		}
		body = append(body, Labelled(st, "effect", style.Render(render.ServerLine(d.SideEffect)), iw)...)
	}
	if d.Reason != "" {
		for i, l := range render.SplitLines(render.ServerText(d.Reason)) {
			label := ""
			if i == 0 {
				label = "reason"
			}
			body = append(body, Labelled(st, label, l, iw)...)
		}
	}
	if len(d.Plan) > 0 && string(d.Plan) != "null" {
		body = append(body, "", st.Muted.Render("plan"))
		for _, l := range render.JSONLines(st, d.Plan) {
			body = append(body, render.WrapIndent("  "+l, iw, "    ")...)
		}
	}
	d.box.title = d.Title
	d.box.body = body
	d.box.actions = buttons(st, confirmButtons, d.Focus) + st.Muted.Render("  esc = refuse")
	return d.box.render(st, dw, h)
}
