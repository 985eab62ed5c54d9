package dialog

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Text shows read-only text (tool details, a server's status, an
// error) in a scrollable box.
type Text struct {
	Title string
	// Lines draws the body at inner width iw (wrapping is its own).
	Lines func(st *themes.Styles, iw int) []string
	// Max is the widest the box grows, in cells.
	Max int
	box box
}

// Handle takes a key (Dialog).
func (d *Text) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	switch msg.String() {
	case "esc", "q", "enter", "i", "?":
		return Close{}, nil
	}
	scrollKey(msg, &d.box.scroll)
	return nil, nil
}

// View draws the dialog within the w×h screen (Dialog).
func (d *Text) View(st *themes.Styles, w, h int) string {
	dw := Width(w, d.Max)
	iw := InnerWidth(dw)
	d.box.title = d.Title
	d.box.body = d.Lines(st, iw)
	d.box.actions = st.Muted.Render("esc close · ↑/↓ scroll")
	return d.box.render(st, dw, h)
}

// NewHelp renders the full key help (bubbles/help, the groups side by
// side as far as they fit) and the legend.
func NewHelp(groups [][]key.Binding, h help.Model) *Text {
	return NewPaneHelp("", nil, groups, h)
}

// NewPaneHelp is the key help of one pane: its own keys first (under the
// pane's name), then every key of the workbench, then the legend.
func NewPaneHelp(pane string, paneKeys []key.Binding, groups [][]key.Binding, h help.Model) *Text {
	title := "Keys"
	if pane != "" {
		title += " · " + pane
	}
	return &Text{Title: title, Max: 110, Lines: func(st *themes.Styles, iw int) []string {
		var out []string
		if len(paneKeys) > 0 {
			out = append(out, st.Bold.Render("in "+strings.ToLower(pane)))
			out = append(out, helpRows(h, [][]key.Binding{paneKeys}, iw)...)
			out = append(out, "", st.Bold.Render("everywhere"))
		}
		out = append(out, helpRows(h, groups, iw)...)
		out = append(out, "",
			st.Bold.Render("servers ")+st.OK.Render("●")+" ready  "+st.Accent.Render("▖")+" connecting  "+st.Muted.Render("◌")+" resolving  "+
				st.Warn.Render("⚠")+" needs consent  "+st.Error.Render("✗")+" failed  "+st.Error.Render("⊘")+" denied  "+st.Muted.Render("○")+" closed",
			st.Bold.Render("badges  ")+st.BadgeRead.Render("read-only")+"  "+st.BadgeWrite.Render("writes")+"  "+
				st.BadgeDestructive.Render("destructive")+"  "+st.BadgeChanged.Render("⚑ changed"),
			st.Advisory.Render("Badges repeat what each server says about its own tools: advisory, never a guarantee."),
			st.Advisory.Render("Every call asks first (this call / always for this definition), read-only or not, unless tools_auto_approve or an approval remembered for its exact definition clears it."))
		var wrapped []string
		for _, l := range out {
			wrapped = append(wrapped, render.Wrap(l, iw)...)
		}
		return wrapped
	}}
}

// helpRows lays the help columns side by side as far as they fit in iw
// cells and puts the rest below, so no key hides behind bubbles/help's
// ellipsis on a narrow screen.
func helpRows(h help.Model, groups [][]key.Binding, iw int) []string {
	h.Width = 0 // measured here, never cut
	var out, row []string
	var cols [][]key.Binding
	flush := func() {
		if len(cols) == 0 {
			return
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, row...)
		cols, row = nil, nil
	}
	for _, g := range groups {
		next := strings.Split(h.FullHelpView(append(append([][]key.Binding(nil), cols...), g)), "\n")
		if len(cols) > 0 && maxWidth(next) > iw {
			flush()
			next = strings.Split(h.FullHelpView([][]key.Binding{g}), "\n")
		}
		cols, row = append(cols, g), next
	}
	flush()
	return out
}

func maxWidth(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, render.Width(l))
	}
	return w
}
