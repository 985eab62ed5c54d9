package dialog

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Accept shows how a flagged tool's definition differs from the one
// the person accepted, field by field, and asks whether to accept it now
// (A on a flagged tool). Accepting lapses the tool's remembered approvals.
type Accept struct {
	Tool    engine.ToolDef
	Changes []discovery.FieldChange
	Focus   int
	// Yes accepts the definition as it is now; No leaves the tool flagged.
	Yes, No Action
	box     box
}

var acceptButtons = []string{"[y] Accept this definition", "[n] Not now"}

// Handle takes a key (Dialog).
func (d *Accept) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	return yesNoKey(msg, &d.Focus, &d.box.scroll, d.Yes, d.No), nil
}

// View draws the dialog within the w×h screen (Dialog).
func (d *Accept) View(st *themes.Styles, w, h int) string {
	dw := Width(w, 100)
	iw := InnerWidth(dw)
	var body []string
	body = append(body, Labelled(st, "server", render.ServerLine(d.Tool.Server)+st.Muted.Render(" · tool "+render.ServerLine(d.Tool.Tool)), iw)...)
	body = append(body, render.Wrap(st.BadgeChanged.Render("⚑ the definition changed since you accepted it; until you accept it, every call asks and no remembered approval applies"), iw)...)
	body = append(body, "", st.Muted.Render("changes (the server's text, escaped)"))
	if len(d.Changes) == 0 {
		body = append(body, st.Muted.Render("  (no field diff is available)"))
	}
	for _, c := range d.Changes {
		ptr := c.Pointer
		if ptr == "" {
			ptr = "(the whole definition)"
		}
		old, now := c.Old, c.New
		if old == "" {
			old = "(absent)"
		}
		if now == "" {
			now = "(absent)"
		}
		body = append(body, render.WrapIndent("  "+st.Bold.Render(render.ServerLine(ptr)), iw, "    ")...)
		body = append(body, render.WrapIndent(st.DiffDel.Render("    - "+render.ServerLine(old)), iw, "      ")...)
		body = append(body, render.WrapIndent(st.DiffAdd.Render("    + "+render.ServerLine(now)), iw, "      ")...)
	}
	body = append(body, "")
	body = append(body, render.WrapIndent(st.Muted.Render("Accepting pins this definition; approvals remembered for the tool lapse."), iw, "")...)
	d.box.title = "Accept the changed definition of " + render.ServerLine(d.Tool.Name) + "?"
	d.box.body = body
	d.box.actions = buttons(st, acceptButtons, d.Focus) + st.Muted.Render("  esc = not now")
	return d.box.render(st, dw, h)
}
