package dialog

import (
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/sandbox"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Consent asks whether a local program may be started: the full
// resolved command line (wrapped, never truncated), its arguments, env names
// with their kind (never values), cwd, digest, and the field diff against
// the earlier grant of the same server (Grants.Closest). Approve & remember
// / approve once / deny; Esc denies. Remembering takes a deliberate
// gesture: the capital A, or choosing the button and pressing enter; a
// lowercase a does nothing here (a word typed into the wrong window must
// not approve anything). The decision itself is made by package consent.
// A server that cannot be remembered (an ad-hoc one) has no Remember: the
// dialog offers approve once and deny only.
//
// The same dialog asks about a secret binding (Bind set, Dec empty): may a
// secret of the person's stores go to a network origin — the server, the
// secret by its reference (never its value), the origin, the header names
// that carry it and the digest, with the same answers and keys — and about
// a local endpoint (Bind.Binding.Local): may relavium dial the loopback or
// private address another client's file names for a server.
type Consent struct {
	Dec  consent.Decision
	Bind *consent.BindingDecision
	// Remember, Once and Deny are the answers: approve and remember
	// (nil: not offered), approve for this session, deny.
	Remember, Once, Deny Action
	focus                int
	box                  box
}

var consentButtons = []string{"[A] Approve & remember", "[o] Approve once", "[d] Deny"}

// NewConsent asks about dec, Deny focused.
func NewConsent(dec consent.Decision, remember, once, deny Action) *Consent {
	return &Consent{Dec: dec, Remember: remember, Once: once, Deny: deny, focus: 2}
}

// Handle takes a key (Dialog).
func (d *Consent) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	switch msg.String() {
	case "A":
		if d.Remember == nil {
			return nil, nil
		}
		return d.Remember, nil
	case "o":
		return d.Once, nil
	case "d", "n", "esc":
		return d.Deny, nil
	case "left", "shift+tab":
		d.focus = (d.focus + 2) % 3
		if d.Remember == nil && d.focus == 0 {
			d.focus = 2
		}
	case "right", "tab":
		d.focus = (d.focus + 1) % 3
		if d.Remember == nil && d.focus == 0 {
			d.focus = 1
		}
	case "enter":
		return []Action{d.Remember, d.Once, d.Deny}[d.focus], nil
	default:
		scrollKey(msg, &d.box.scroll)
	}
	return nil, nil
}

// NewBinding asks about the secret binding of dec, Deny focused.
func NewBinding(dec consent.BindingDecision, remember, once, deny Action) *Consent {
	return &Consent{Bind: &dec, Remember: remember, Once: once, Deny: deny, focus: 2}
}

// viewBinding draws the question of a binding, in one frame whatever its
// kind: which server (and where its file declares it), then
//   - a headers helper: the exact line it runs (through which shell,
//     where), the origin its output goes to as headers, that it runs a
//     program;
//   - a local endpoint: the address it would dial and what kind of local
//     it is;
//   - a secret: which secret, the origin, the headers that carry it, and
//     any header that newly carries it.
func (d *Consent) viewBinding(st *themes.Styles, w, h int) string {
	dw := Width(w, 110)
	iw := InnerWidth(dw)
	b := d.Bind.Binding
	var body []string
	add := func(lines ...string) { body = append(body, lines...) }
	if d.Bind.StoreErr != nil {
		add(render.WrapIndent(st.Banner.Render("⚠ remembered grants are not trusted: "+consent.ProblemOf(d.Bind.StoreErr).Message), iw, "  ")...)
		add("")
	}
	add(Labelled(st, "server", st.Bold.Render(consent.Display(b.Server)), iw)...)
	if b.Source != "" && (b.Helper != nil || b.Local) {
		add(LabelledPath(st, "from", consent.Display(b.Source), iw)...)
	}
	var title, note string
	switch {
	case b.Helper != nil:
		add(Labelled(st, "runs", consent.Display(b.Helper.Line), iw)...)
		add(LabelledPath(st, "shell", consent.Display(b.Helper.Shell)+" -c", iw)...)
		add(LabelledPath(st, "cwd", consent.Display(b.Helper.Cwd), iw)...)
		add(LabelledPath(st, "sends", "its output as request headers to "+consent.Display(b.Origin), iw)...)
		add(Labelled(st, "", st.Warn.Render(consent.HelperNote), iw)...)
		add(Labelled(st, "digest", b.Digest, iw)...)
		title = "Run a headers helper? (server " + consent.Display(b.Server) + ")"
		note = "A project file names this program; it cannot approve itself. Another line, directory or origin asks again."
	case b.Local:
		add(LabelledPath(st, "address", consent.Display(b.Origin), iw)...)
		add(Labelled(st, "", st.Warn.Render(b.LocalKind()), iw)...)
		add(Labelled(st, "digest", b.Digest, iw)...)
		title = "Dial a local address? (server " + consent.Display(b.Server) + ")"
		note = "Another client's file points this server here; it cannot approve itself. Approving opens exactly this address and port: another one asks again."
	default:
		add(Labelled(st, "secret", b.Ref()+st.Muted.Render(" ("+b.Kind()+"; value not shown)"), iw)...)
		add(LabelledPath(st, "origin", consent.Display(b.Origin), iw)...)
		add(LabelledPath(st, "headers", consent.Display(strings.Join(b.Headers, ", ")), iw)...)
		add(Labelled(st, "digest", b.Digest, iw)...)
		if len(d.Bind.Added) > 0 {
			add("")
			add(render.Wrap(st.DiffAdd.Render("+ header(s) "+consent.Display(strings.Join(d.Bind.Added, ", "))+" now carry it; the binding granted earlier did not name them"), iw)...)
		}
		title = "Send a secret to " + consent.Display(b.Origin) + "? (server " + consent.Display(b.Server) + ")"
		note = "Approving binds this secret to this origin only: another origin, or another header, asks again."
	}
	add("")
	add(render.Wrap(st.Muted.Render(note), iw)...)
	d.box.title = title
	d.box.body = body
	d.box.actions = buttons(st, consentButtons, d.focus) + st.Muted.Render("  esc = deny")
	return d.box.render(st, dw, h)
}

// View draws the dialog within the w×h screen (Dialog).
func (d *Consent) View(st *themes.Styles, w, h int) string {
	if d.Bind != nil {
		return d.viewBinding(st, w, h)
	}
	dw := Width(w, 110)
	iw := InnerWidth(dw)
	r := d.Dec.Server
	var body []string
	add := func(lines ...string) { body = append(body, lines...) }
	if d.Dec.StoreErr != nil {
		add(render.WrapIndent(st.Banner.Render("⚠ remembered grants are not trusted: "+consent.ProblemOf(d.Dec.StoreErr).Message), iw, "  ")...)
		add("")
	}
	add(Labelled(st, "server", st.Bold.Render(consent.Display(r.Name)), iw)...)
	add(LabelledPath(st, "command", r.CommandLine(), iw)...)
	if len(r.Args) == 0 {
		add(Labelled(st, "args", st.Muted.Render("(none)"), iw)...)
	}
	for i, a := range r.Args {
		label := ""
		if i == 0 {
			label = "args"
		}
		add(LabelledPath(st, label, "["+strconv.Itoa(i)+"] "+consent.Display(a), iw)...)
	}
	if len(r.Env) == 0 {
		add(Labelled(st, "env", st.Muted.Render("(none declared)"), iw)...)
	}
	for i, e := range r.Env {
		label := ""
		if i == 0 {
			label = "env"
		}
		add(Labelled(st, label, consent.Display(e.Name)+st.Muted.Render(" ("+e.Describe()+"; value not shown)"), iw)...)
	}
	if r.EnvFile != nil {
		add(LabelledPath(st, "env file", consent.EnvFileLine(r.EnvFile), iw)...)
	}
	add(LabelledPath(st, "cwd", consent.Display(r.Cwd), iw)...)
	add(Labelled(st, "digest", r.Digest, iw)...)
	add("")
	if diff := d.Dec.Diff; diff != nil {
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
	if d.Remember == nil {
		add(render.Wrap(st.Muted.Render("An ad-hoc server is approved for this session only: nothing is remembered."), iw)...)
	}
	// The sandbox comes last: its paths are many, and what the person must
	// see first (the program, the digest, the changes) stays on screen.
	if sb := consent.SandboxLines(r); len(sb) > 0 {
		add("")
		for i, l := range compactSystem(sb) {
			label := ""
			if i == 0 {
				label = "sandbox"
			}
			if strings.HasPrefix(l, "not sandboxed") || strings.Contains(l, "sandbox = false") {
				l = st.Warn.Render(l)
			}
			add(LabelledPath(st, label, l, iw)...)
		}
	}
	d.box.title = "Start a local program? (stdio server " + consent.Display(r.Name) + ")"
	d.box.body = body
	if d.Remember == nil {
		d.box.actions = buttons(st, consentButtons[1:], d.focus-1) + st.Muted.Render("  esc = deny")
	} else {
		d.box.actions = buttons(st, consentButtons, d.focus) + st.Muted.Render("  esc = deny")
	}
	return d.box.render(st, dw, h)
}

// compactSystem folds the system paths every default policy reads into one
// line ("read   the system: /bin /etc/hosts … (N paths)"), so the dialog
// keeps its buttons and the status line on screen; every other path stays
// on a line of its own (mcp ls and the headless block list them all).
func compactSystem(lines []string) []string {
	var out, system []string
	at := -1
	for _, l := range lines {
		if p, ok := strings.CutPrefix(l, "read   "); ok && sandbox.System(p) {
			if at < 0 {
				at = len(out)
				out = append(out, "")
			}
			system = append(system, p)
			continue
		}
		out = append(out, l)
	}
	if at >= 0 {
		s := strings.Join(system, " ")
		if len(s) > 60 {
			s = s[:60] + "…"
		}
		out[at] = fmt.Sprintf("read   the system (%d paths: %s)", len(system), s)
	}
	return out
}
