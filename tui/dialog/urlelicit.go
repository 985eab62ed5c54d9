package dialog

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// URLElicit is a url-mode elicitation's safety screen: the server wants
// the person on a page. It shows the full origin and the url as screened
// (engine.ElicitURL: warnings about how the host name reads, or why it is
// never opened), and opens nothing until o is pressed. o answers accept
// (after the page is opened), ctrl+d declines, esc cancels.
type URLElicit struct {
	Request *engine.ElicitRequest
	// Open is the Action of o: open the url, then accept.
	Open Action
	// Answer turns a decline or cancel into the dialog's Action.
	Answer func(engine.ElicitResponse) Action
	box    box
}

// Handle takes a key (Dialog).
func (d *URLElicit) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	switch msg.String() {
	case "o":
		if d.Request.URL != nil && d.Request.URL.Openable {
			return d.Open, nil
		}
	case "ctrl+d":
		return d.Answer(engine.ElicitResponse{Action: "decline"}), nil
	case "esc":
		return d.Answer(engine.ElicitResponse{Action: "cancel"}), nil
	default:
		scrollKey(msg, &d.box.scroll)
	}
	return nil, nil
}

// View draws the dialog within the w×h screen (Dialog).
func (d *URLElicit) View(st *themes.Styles, w, h int) string {
	dw := Width(w, 90)
	iw := InnerWidth(dw)
	r := d.Request
	u := r.URL
	var body []string
	body = append(body, render.Wrap(st.Advisory.Render(sanitize.ExternalLabel(r.Server)+" wants you to open a page"), iw)...)
	body = append(body, render.StyledWrap(st.Text, render.ServerText(r.Message), iw)...)
	body = append(body, "")
	origin := u.Origin
	if origin == "" {
		origin = "(none: the url does not parse)"
	}
	body = append(body, render.Wrap(st.Label.Render("origin  ")+st.Bold.Render(render.ServerLine(origin)), iw)...)
	body = append(body, render.Wrap(st.Label.Render("url     ")+st.Text.Render(render.ServerLine(u.URL)), iw)...)
	for _, w := range u.Warnings {
		body = append(body, render.Wrap(st.Warn.Render("⚠ "+render.ServerLine(w)), iw)...)
	}
	labels := []string{"[o] Open in browser", "[ctrl+d] Decline", "[esc] Cancel"}
	if !u.Openable {
		body = append(body, render.Wrap(st.Error.Render("✗ never opened: "+render.ServerLine(u.Refusal)), iw)...)
		labels = labels[1:]
	} else {
		body = append(body, "", st.Muted.Render("Nothing is opened until you press o."))
	}
	d.box.title = render.ServerLine(r.Server) + " asks you to open a page"
	d.box.body = body
	d.box.actions = buttons(st, labels, -1)
	return d.box.render(st, dw, h)
}
