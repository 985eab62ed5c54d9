package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/relavium/relavium/tui/asker"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
)

// The client's side of MCP in the workbench: a server's sampling request
// and url-mode elicitation become dialogs (through the asker, as a form
// elicitation does), the roots offered to servers are listed and edited
// (R, or the palette), and the session's call timeout is set (T). The
// deadline of a call pauses while any of these dialogs is open for its
// server: the host holds it for as long as the asker waits.

// clientSideBackend is what the workbench needs of its backend for the
// client's side: the roots, the call timeout, opening a page. The live
// backend has it; a backend without it offers none of it.
type clientSideBackend interface {
	Roots() ([]clientside.Root, bool)
	SetRoots(dirs []string) error
	CallTimeout() time.Duration
	SetCallTimeout(d time.Duration) bool
	OpenURL(ctx context.Context, url string) error
}

// clientSideMsg carries a finished client-side Cmd's effect back into
// Update.
type clientSideMsg func(m *Model) tea.Cmd

// samplingAction answers a sampling request.
type samplingAction struct {
	req  *asker.Request
	resp engine.SampleResponse
}

// urlOpenAction opens the url of a url-mode elicitation, then accepts it.
type urlOpenAction struct{ req *asker.Request }

// rootsAction replaces the roots with dirs.
type rootsAction struct{ dirs []string }

// callTimeoutAction sets the session's call timeout from the person's text.
type callTimeoutAction struct{ text string }

// onClientAsk opens the dialog of a sampling request or a url-mode
// elicitation; ok is false for any other question.
func (m *Model) onClientAsk(r *asker.Request) (tea.Cmd, bool) {
	switch {
	case r.Sample != nil:
		m.pushDialog(dialog.NewSampling(m.st, r.Sample, func(resp engine.SampleResponse) dialog.Action {
			return samplingAction{req: r, resp: resp}
		}))
		j := m.logToServerJob(r.Sample.Server, logLine{Level: "notice", Server: r.Sample.Server, Text: "asks for a sampling reply (" + r.Sample.ID + ")"})
		m.cr.sampledBy(r.Sample.Server, r.Sample.ID, j)
	case r.Elicit != nil && r.Elicit.URL != nil:
		m.pushDialog(&dialog.URLElicit{Request: r.Elicit, Open: urlOpenAction{req: r}, Answer: func(resp engine.ElicitResponse) dialog.Action {
			return elicitAction{req: r, resp: resp}
		}})
		m.logToServerJob(r.Elicit.Server, logLine{Level: "notice", Server: r.Elicit.Server, Text: "asks you to open " + render.ServerLine(r.Elicit.URL.Origin)})
	default:
		return nil, false
	}
	return asker.Watch(r), true
}

// askedBy reports whether d is the dialog of r (a client-side question).
func askedBy(d dialog.Dialog, r *asker.Request) bool {
	switch d := d.(type) {
	case *dialog.Sampling:
		return r.Sample != nil && d.Request == r.Sample
	case *dialog.URLElicit:
		return r.Elicit != nil && d.Request == r.Elicit
	}
	return false
}

// applyClientSide carries out a client-side dialog's Action; ok is false
// for any other Action.
func (m *Model) applyClientSide(a dialog.Action) (tea.Cmd, bool) {
	switch a := a.(type) {
	case samplingAction:
		asker.Reply(a.req, asker.Answer{Sample: a.resp})
		m.status.set("sampling "+a.resp.Action+" for "+a.req.Sample.Server, false)
	case urlOpenAction:
		return m.openURLCmd(a.req), true
	case rootsAction:
		return m.setRootsCmd(a.dirs), true
	case callTimeoutAction:
		m.setCallTimeout(a.text)
	default:
		return nil, false
	}
	return nil, true
}

// openURLCmd opens the page, then answers the elicitation: accept when the
// page was opened, cancel (and the reason on the status line) when not.
func (m *Model) openURLCmd(r *asker.Request) tea.Cmd {
	cb, ok := m.b.(clientSideBackend)
	ctx, url := m.ctx, r.Elicit.URL.URL
	return func() tea.Msg {
		err := errors.New("this workbench cannot open pages")
		if ok {
			err = cb.OpenURL(ctx, url)
		}
		return clientSideMsg(func(m *Model) tea.Cmd {
			if err != nil {
				asker.Reply(r, asker.Answer{Elicit: engine.ElicitResponse{Action: "cancel"}})
				m.status.set("could not open the page: "+render.ServerLine(err.Error()), true)
				return nil
			}
			asker.Reply(r, asker.Answer{Elicit: engine.ElicitResponse{Action: "accept"}})
			m.status.set("opened "+render.ServerLine(r.Elicit.URL.Origin)+" for "+r.Elicit.Server, false)
			return nil
		})
	}
}

// openRoots opens the roots dialog over the roots offered now.
func (m *Model) openRoots(note string) {
	cb, ok := m.b.(clientSideBackend)
	var dirs []string
	offered := false
	if ok {
		var roots []clientside.Root
		roots, offered = cb.Roots()
		for _, r := range roots {
			dirs = append(dirs, r.Path)
		}
	}
	if !offered {
		m.status.set("no roots are offered in this session yet (no server connected)", true)
		return
	}
	m.pushDialog(dialog.NewRoots(dirs, note, func(d []string) dialog.Action { return rootsAction{dirs: d} }))
}

// setRootsCmd replaces the roots (the host tells every server) and opens
// the roots dialog again with the outcome.
func (m *Model) setRootsCmd(dirs []string) tea.Cmd {
	cb, ok := m.b.(clientSideBackend)
	if !ok {
		return nil
	}
	return func() tea.Msg {
		err := cb.SetRoots(dirs)
		return clientSideMsg(func(m *Model) tea.Cmd {
			note := "roots changed; servers were told (roots/list_changed)"
			if err != nil {
				note = "not changed: " + err.Error()
			}
			m.openRoots(note)
			return nil
		})
	}
}

// openCallTimeout opens the call timeout setting.
func (m *Model) openCallTimeout() tea.Cmd {
	cb, ok := m.b.(clientSideBackend)
	if !ok {
		return nil
	}
	cur := cb.CallTimeout()
	d, cmd := dialog.NewInput("Call timeout",
		"How long a call may go without progress before it fails (E510), for servers without call_timeout_ms. Time a dialog of yours is open does not count. A duration: 90s, 5m.",
		cur.String(), func(s string) dialog.Action { return callTimeoutAction{text: s} })
	m.pushDialog(d)
	return cmd
}

func (m *Model) setCallTimeout(text string) {
	d, err := time.ParseDuration(strings.TrimSpace(text))
	cb, ok := m.b.(clientSideBackend)
	switch {
	case err != nil || d <= 0 || d > time.Hour:
		m.status.set("a call timeout is a duration from 1ms to 1h, such as 90s", true)
	case !ok || !cb.SetCallTimeout(d):
		m.status.set("no server connected yet: the call timeout cannot be set", true)
	default:
		m.status.set("call timeout set to "+d.String(), false)
	}
}

// clientSideKey takes the workbench keys of the client's side: R roots,
// T call timeout. ok is false for any other key.
func (m *Model) clientSideKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, m.keys.Roots):
		m.openRoots("")
		return nil, true
	case key.Matches(msg, m.keys.CallTimeout):
		return m.openCallTimeout(), true
	}
	return nil, false
}

// paletteClientSide are the palette entries of the client's side.
func (m *Model) paletteClientSide() []dialog.PaletteItem {
	return []dialog.PaletteItem{
		item("action", "Roots offered to servers", "R", func(m *Model) tea.Cmd { m.openRoots(""); return nil }),
		item("action", "Call timeout", "T", func(m *Model) tea.Cmd { return m.openCallTimeout() }),
	}
}

// onSamplingResolved says in the call's log how a sampling request was
// answered (the reply itself is in the export).
func (m *Model) onSamplingResolved(d engine.SamplingResolvedData) {
	text := "sampling " + d.ID + " answered: " + d.Action
	switch {
	case d.Action == engine.SampleAccept:
		text += " (" + render.ServerLine(d.Role) + ", " + render.ServerLine(d.StopReason) + ", " + fmt.Sprint(len(d.Text)) + " bytes)"
	case d.ErrorCode != "":
		text += " (" + d.ErrorCode + ": " + render.ServerLine(d.Reason) + ")"
	}
	l := logLine{Level: "notice", Server: d.Server, Text: text}
	// The answer goes to the call that asked, even when that call's result
	// came back first (the two race): the job noted at the question.
	if j := m.cr.sampler(d.Server, d.ID); j != nil {
		j.addLog(l)
		return
	}
	m.logToServerJob(d.Server, l)
}
