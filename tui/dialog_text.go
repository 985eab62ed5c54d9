package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/themes"
)

// textDialog shows read-only text (tool details, a server's status, an
// error) in a scrollable box.
type textDialog struct {
	title string
	lines func(st *themes.Styles, iw int) []string
	box   dialogBox
	max   int
}

func (d *textDialog) handle(msg tea.KeyMsg, k keyMap) (action, tea.Cmd) {
	switch msg.String() {
	case "esc", "q", "enter", "i", "?":
		return closeAction{}, nil
	}
	scrollKey(msg, &d.box.scroll)
	return nil, nil
}

func (d *textDialog) view(st *themes.Styles, w, h int) string {
	dw := dialogWidth(w, d.max)
	iw := innerWidth(dw)
	d.box.title = d.title
	d.box.body = d.lines(st, iw)
	d.box.actions = st.Muted.Render("esc close · ↑/↓ scroll")
	return d.box.render(st, dw, h)
}

// newHelpDialog renders the full key help (bubbles/help) and the legend.
func newHelpDialog(k keyMap, h help.Model) *textDialog {
	return &textDialog{title: "Keys", max: 110, lines: func(st *themes.Styles, iw int) []string {
		h.Width = iw
		var out []string
		out = append(out, strings.Split(h.FullHelpView(k.fullHelp()), "\n")...)
		out = append(out, "",
			st.Bold.Render("servers ")+st.OK.Render("●")+" ready  "+st.Accent.Render("▖")+" connecting  "+st.Muted.Render("◌")+" resolving  "+
				st.Warn.Render("⚠")+" needs consent  "+st.Error.Render("✗")+" failed  "+st.Error.Render("⊘")+" denied  "+st.Muted.Render("○")+" closed",
			st.Bold.Render("badges  ")+st.BadgeRead.Render("read-only")+"  "+st.BadgeWrite.Render("writes")+"  "+
				st.BadgeDestructive.Render("destructive")+"  "+st.BadgeChanged.Render("⚑ changed"),
			st.Advisory.Render("Badges repeat what each server says about its own tools: advisory, never a guarantee."),
			st.Advisory.Render("A tool not annotated read-only asks before it is called."))
		var wrapped []string
		for _, l := range out {
			wrapped = append(wrapped, wrap(l, iw)...)
		}
		return wrapped
	}}
}
