package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// consentDialog asks whether a local program may be started: the full
// resolved command line (wrapped, never truncated), its arguments, env names
// with their kind (never values), cwd, digest, and the field diff against
// the closest earlier grant. Approve & remember / approve once / deny;
// Esc denies. The decision itself is made by package consent.
type consentDialog struct {
	dec   consent.Decision
	focus int
	box   dialogBox
}

// consentAction is the person's answer.
type consentAction struct {
	server string
	answer Answer
}

var consentButtons = []string{"[a] Approve & remember", "[o] Approve once", "[d] Deny"}

func newConsentDialog(d consent.Decision) *consentDialog {
	return &consentDialog{dec: d, focus: 2}
}

func (d *consentDialog) answer(a Answer) action {
	return consentAction{server: d.dec.Server.Name, answer: a}
}

func (d *consentDialog) handle(msg tea.KeyMsg, k keyMap) (action, tea.Cmd) {
	switch msg.String() {
	case "a":
		return d.answer(ApproveRemember), nil
	case "o":
		return d.answer(ApproveOnce), nil
	case "d", "esc":
		return d.answer(DenyConsent), nil
	case "left", "shift+tab":
		d.focus = (d.focus + 2) % 3
	case "right", "tab":
		d.focus = (d.focus + 1) % 3
	case "enter":
		return d.answer([]Answer{ApproveRemember, ApproveOnce, DenyConsent}[d.focus]), nil
	default:
		scrollKey(msg, &d.box.scroll)
	}
	return nil, nil
}

func (d *consentDialog) view(st *themes.Styles, w, h int) string {
	dw := dialogWidth(w, 110)
	iw := innerWidth(dw)
	r := d.dec.Server
	var body []string
	add := func(lines ...string) { body = append(body, lines...) }
	if d.dec.StoreErr != nil {
		add(render.WrapIndent(st.Banner.Render("⚠ remembered grants are not trusted: "+consent.ProblemOf(d.dec.StoreErr).Message), iw, "  ")...)
		add("")
	}
	add(labelled(st, "server", st.Bold.Render(consent.Display(r.Name)), iw)...)
	add(labelled(st, "command", r.CommandLine(), iw)...)
	if len(r.Args) == 0 {
		add(labelled(st, "args", st.Muted.Render("(none)"), iw)...)
	}
	for i, a := range r.Args {
		label := ""
		if i == 0 {
			label = "args"
		}
		add(labelled(st, label, st.Muted.Render("["+itoa(i)+"] ")+consent.Display(a), iw)...)
	}
	if len(r.Env) == 0 {
		add(labelled(st, "env", st.Muted.Render("(none declared)"), iw)...)
	}
	for i, e := range r.Env {
		label := ""
		if i == 0 {
			label = "env"
		}
		kind := string(e.Kind)
		if e.Kind == consent.KindSecretRef {
			kind += " {{secrets." + e.Secret + "}}"
		}
		add(labelled(st, label, consent.Display(e.Name)+st.Muted.Render(" ("+kind+"; value not shown)"), iw)...)
	}
	add(labelled(st, "cwd", consent.Display(r.Cwd), iw)...)
	add(labelled(st, "digest", r.Digest, iw)...)
	add("")
	if diff := d.dec.Diff; diff != nil {
		add(render.Wrap(st.Bold.Render(diff.Header()), iw)...)
		if diff.Previous != nil {
			for _, l := range diff.Lines() {
				style := st.Text
				switch {
				case strings.HasPrefix(l, "+ "):
					style = st.DiffAdd
				case strings.HasPrefix(l, "- "):
					style = st.DiffDel
				case strings.HasPrefix(l, "~ "):
					style = st.DiffNote
				}
				for _, wl := range render.WrapIndent(l, iw-2, "    ") {
					add("  " + style.Render(wl))
				}
			}
		}
	}
	d.box.title = "Start a local program? (stdio server " + consent.Display(r.Name) + ")"
	d.box.body = body
	d.box.actions = buttons(st, consentButtons, d.focus) + st.Muted.Render("  esc = deny")
	return d.box.render(st, dw, h)
}
