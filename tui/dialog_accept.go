package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// acceptDialog shows how a flagged tool's definition differs from the one
// the person accepted, field by field, and asks whether to accept it now
// (A on a flagged tool). Accepting lapses the tool's remembered approvals.
type acceptDialog struct {
	tool    engine.ToolDef
	changes []discovery.FieldChange
	focus   int
	box     dialogBox
}

// acceptAction accepts tool's definition as it is now.
type acceptAction struct{ tool engine.ToolDef }

var acceptButtons = []string{"[y] Accept this definition", "[n] Not now"}

func (d *acceptDialog) handle(msg tea.KeyMsg, _ keyMap) (action, tea.Cmd) {
	notNow := statusAction{text: d.tool.Name + " stays flagged until you accept its definition"}
	switch msg.String() {
	case "y":
		return acceptAction{tool: d.tool}, nil
	case "n", "esc":
		return notNow, nil
	case "left", "right", "tab", "shift+tab":
		d.focus = 1 - d.focus
	case "enter":
		if d.focus == 0 {
			return acceptAction{tool: d.tool}, nil
		}
		return notNow, nil
	default:
		scrollKey(msg, &d.box.scroll)
	}
	return nil, nil
}

func (d *acceptDialog) view(st *themes.Styles, w, h int) string {
	dw := dialogWidth(w, 100)
	iw := innerWidth(dw)
	var body []string
	body = append(body, labelled(st, "server", render.ServerLine(d.tool.Server)+st.Muted.Render(" · tool "+render.ServerLine(d.tool.Tool)), iw)...)
	body = append(body, render.Wrap(st.BadgeChanged.Render("⚑ the definition changed since you accepted it; until you accept it, every call asks and no remembered approval applies"), iw)...)
	body = append(body, "", st.Muted.Render("changes (the server's text, escaped)"))
	if len(d.changes) == 0 {
		body = append(body, st.Muted.Render("  (no field diff is available)"))
	}
	for _, c := range d.changes {
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
	d.box.title = "Accept the changed definition of " + render.ServerLine(d.tool.Name) + "?"
	d.box.body = body
	d.box.actions = buttons(st, acceptButtons, d.focus) + st.Muted.Render("  esc = not now")
	return d.box.render(st, dw, h)
}
