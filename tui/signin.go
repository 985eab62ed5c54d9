package tui

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/oauth"
	"github.com/relavium/relavium/tui/render"
)

// Sign-in of an http server that wants OAuth. The session connects with
// stored tokens only; a server that needs a sign-in fails with E850 (or a
// call with E851, a step-up) and its row says `needs sign-in` with the
// authorization server's origin. enter on it signs in: the browser opens
// (the url is shown too, to copy into a browser elsewhere), the workbench
// waits for the redirect (esc or c cancels), then the server reconnects,
// or the call can be sent again with the new scopes.

// signInState is the one sign-in in progress.
// authState is sign-in's part of the workbench: the OAuth sign-in running
// and the servers a call found wanting more scopes.
type authState struct {
	*ui
	run     *signInState
	stepUps map[string]oauth.SignInData
}

type signInState struct {
	server  string
	started time.Time // when it began: its wait is shown
	stepUp  bool
	prompt  *oauth.Prompt // nil until the authorization url is known
	cancel  context.CancelFunc
	msgs    chan tea.Msg
}

// signInPromptMsg carries the authorization url of the running sign-in.
type signInPromptMsg struct {
	server string
	prompt oauth.Prompt
}

// signInDoneMsg ends a sign-in.
type signInDoneMsg struct {
	server string
	err    error
}

// needs reports whether r waits for a sign-in (its connect failed
// with E850, or one of its calls asked for more scopes, E851), and the
// authorization server's origin and the scopes when known.
func (a *authState) needs(r *serverRow) (origin string, scopes []string, ok bool) {
	if s, ok := a.stepUps[r.spec.Name]; ok {
		return s.AuthServer, s.Scopes, true
	}
	if r.state == engine.StateFailed && (r.errCode == oauth.CodeSignInRequired || r.errCode == oauth.CodeStepUpRequired) {
		return originIn(r.err), nil, true
	}
	return "", nil, false
}

var originRE = regexp.MustCompile(`needs sign-in at (https?://[^\s;]+)`)

func originIn(msg string) string {
	if m := originRE.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	return ""
}

// detail is the row's short state while it needs a sign-in.
func (a *authState) detail(r *serverRow) (string, bool) {
	origin, _, ok := a.needs(r)
	if !ok {
		return "", false
	}
	if a.run != nil && a.run.server == r.spec.Name {
		return a.st.Accent.Render(after("signing in…", " ", a.waited(a.run.started))), true
	}
	s := "needs sign-in"
	if origin != "" {
		s += " · " + origin
	}
	return a.st.Warn.Render(render.ServerLine(s)), true
}

// details are the selected row's detail lines while it needs (or
// runs) a sign-in.
func (a *authState) details(r *serverRow, w int) []string {
	origin, scopes, ok := a.needs(r)
	if !ok {
		return nil
	}
	st := a.st
	var out []string
	add := func(s string) { out = append(out, render.WrapIndent(s, w, "  ")...) }
	if si := a.run; si != nil && si.server == r.spec.Name {
		if si.prompt == nil {
			add(st.Accent.Render(after("finding the authorization server…", " ", a.waited(si.started))))
		} else {
			p := si.prompt
			add(st.Accent.Render(after("waiting for the browser", " · ", a.waited(si.started)) + ": sign in at " + render.ServerLine(p.AuthServer)))
			if len(p.Scopes) > 0 {
				add("scopes: " + render.ServerLine(strings.Join(p.Scopes, " ")))
			}
			add(st.Muted.Render("if no browser opened, open this url (copy it):"))
			add(render.ServerLine(p.URL))
		}
		add(st.Muted.Render("esc or c cancels"))
		return out
	}
	what := "needs sign-in"
	if origin != "" {
		what += " at " + origin
	}
	add(st.Warn.Render(render.ServerLine(what)))
	if len(scopes) > 0 {
		add("the server asks for more scopes: " + render.ServerLine(strings.Join(scopes, " ")))
	}
	add(st.Muted.Render("press enter to sign in (your browser opens; the url is shown too)"))
	return out
}

// startSignIn runs the sign-in of r in the background; its messages come
// back through waitSignIn.
func (m *Model) startSignIn(r *serverRow) tea.Cmd {
	if m.auth.run != nil {
		m.status.set("a sign-in is already running (esc cancels it)", true)
		return nil
	}
	_, scopes, _ := m.auth.needs(r)
	ctx, cancel := context.WithCancel(m.ctx)
	si := &signInState{server: r.spec.Name, started: m.now(), stepUp: len(scopes) > 0, cancel: cancel, msgs: make(chan tea.Msg, 2)}
	m.auth.run = si
	be, server := m.b, r.spec.Name
	go func() {
		err := be.SignIn(ctx, server, func(p oauth.Prompt) {
			select {
			case si.msgs <- signInPromptMsg{server: server, prompt: p}:
			default:
			}
		})
		si.msgs <- signInDoneMsg{server: server, err: err}
	}()
	return waitSignIn(si)
}

func waitSignIn(si *signInState) tea.Cmd {
	return func() tea.Msg { return <-si.msgs }
}

// onSignIn handles the sign-in's messages.
func (m *Model) onSignIn(msg tea.Msg) tea.Cmd {
	si := m.auth.run
	switch msg := msg.(type) {
	case signInPromptMsg:
		if si == nil || si.server != msg.server {
			return nil
		}
		p := msg.prompt
		si.prompt = &p
		return waitSignIn(si)
	case signInDoneMsg:
		if si != nil && si.server == msg.server {
			si.cancel()
			m.auth.run = nil
		}
		if msg.err != nil {
			if errors.Is(msg.err, context.Canceled) || fault.CodeOf(msg.err, "") == oauth.CodeCancelled {
				m.status.set("sign-in to "+msg.server+" cancelled", false)
			} else {
				m.status.set("sign-in to "+msg.server+" failed: "+msg.err.Error(), true)
			}
			return nil
		}
		delete(m.auth.stepUps, msg.server)
		m.status.set("signed in to "+msg.server, false)
		for _, r := range m.servers.rows {
			if r.spec.Name == msg.server && r.state == engine.StateFailed {
				m.setSel(m.indexOf(r))
				return m.reconnectSelected()
			}
		}
	}
	return nil
}

func (m *Model) indexOf(r *serverRow) int {
	for i, x := range m.servers.rows {
		if x == r {
			return i
		}
	}
	return m.servers.sel
}

// signInKey cancels a running sign-in on esc or c.
func (m *Model) signInKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	if m.auth.run == nil || (msg.String() != "esc" && msg.String() != "c") {
		return nil, false
	}
	m.auth.run.cancel()
	return nil, true
}

// noteStepUp remembers a call that found the server wanting a sign-in: a
// step-up (E851, more scopes) or a token that expired with no refresh
// token to renew it (E850). Either way the server's row says `needs
// sign-in` and enter signs in; the call can then be sent again.
func (m *Model) noteStepUp(err error) {
	var d oauth.SignInData
	var dc fault.DataCarrier
	code := fault.CodeOf(err, "")
	if code != oauth.CodeStepUpRequired && code != oauth.CodeSignInRequired || !errors.As(err, &dc) {
		return
	}
	switch v := dc.ErrorData().(type) {
	case oauth.SignInData:
		d = v
	case *oauth.SignInData:
		d = *v
	default:
		return
	}
	if m.auth.stepUps == nil {
		m.auth.stepUps = map[string]oauth.SignInData{}
	}
	m.auth.stepUps[d.Server] = d
	if code == oauth.CodeSignInRequired {
		m.status.set("server "+d.Server+" needs sign-in (its token expired and cannot be refreshed): select it and press enter to sign in", true)
		return
	}
	m.status.set("server "+d.Server+" asks for more scopes: select it and press enter to sign in again", true)
}

// wants reports whether enter on r signs in (rather than drilling
// into its tools).
func (a *authState) wants(r *serverRow) bool {
	_, _, ok := a.needs(r)
	return ok
}
