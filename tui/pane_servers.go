package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
	"github.com/relavium/relavium/tui/serverinfo"
)

// The servers pane: one row per declared server in its live state, and
// below the list the selected server's details (connect time, protocol,
// tool count; or the failure with its stderr tail).

// serversPane is the servers column's state: the rows, the selection and
// the first row in view.
type serversPane struct {
	*ui
	auth   *authState   // reads: whether a row needs sign-in, and the one running
	browse *browsePane  // reads: the tools skipped per server
	cr     *clientState // reads: the log floor
	rows   []*serverRow
	sel    int
	offset int
}

// selected is the selected row (nil with none).
func (p *serversPane) selected() *serverRow {
	if p.sel < 0 || p.sel >= len(p.rows) {
		return nil
	}
	return p.rows[p.sel]
}

// current is the selected server's name (the one whose lists the middle
// pane shows), "" with none.
func (p *serversPane) current() string {
	if r := p.selected(); r != nil {
		return r.spec.Name
	}
	return ""
}

// ready reports whether the named server is connected and ready.
func (p *serversPane) ready(name string) bool {
	r := p.byName(name)
	return r != nil && r.state == engine.StateReady
}

// need is the width the pane would take to show every name whole: the
// cursor and glyph, the name, the transport and a short state; a name
// keeps half its row (view), so the row is at least twice the longest.
func (p *serversPane) need() int {
	name := 0
	for _, r := range p.rows {
		name = max(name, render.Width(render.ServerLine(r.spec.Name)))
	}
	return max(2+2+name+1+6+16, 2*name+4)
}

// byName is the row of the named server (nil when none is declared).
func (p *serversPane) byName(name string) *serverRow {
	for _, r := range p.rows {
		if r.spec.Name == name {
			return r
		}
	}
	return nil
}

func (p *serversPane) stateIcon(r *serverRow) string {
	st := p.st
	switch r.state {
	case engine.StateReady:
		return st.OK.Render("●")
	case engine.StateConnecting:
		return st.Accent.Render(p.spinFrame())
	case engine.StateResolving:
		return st.Muted.Render("◌")
	case engine.StateNeedsConsent:
		return st.Warn.Render("⚠")
	case engine.StateFailed:
		return st.Error.Render("✗")
	case stateDenied:
		return st.Error.Render("⊘")
	case engine.StateClosed:
		return st.Muted.Render("○")
	}
	return st.Muted.Render("?")
}

// stateDetail is the short state text of a row.
func (p *serversPane) stateDetail(r *serverRow) string {
	st := p.st
	if s, ok := p.auth.detail(r); ok {
		return s
	}
	switch r.state {
	case engine.StateReady:
		return serverinfo.DriftMark(st, r.lockDrift, r.lockChecked) + st.Muted.Render(fmt.Sprintf("%s · %d tools", render.HumanDuration(msDur(r.connectMS)), r.tools))
	case engine.StateConnecting:
		return st.Accent.Render("connecting " + render.HumanDuration(p.now().Sub(r.since).Truncate(100*time.Millisecond)))
	case engine.StateResolving:
		return st.Muted.Render(after("resolving…", " ", p.waited(r.since)))
	case engine.StateNeedsConsent:
		if r.spec.Held != "" {
			return st.Warn.Render(after("held: your word on "+r.spec.Held, " ", p.waited(r.since)))
		}
		return st.Warn.Render(after("needs consent", " ", p.waited(r.since)))
	case engine.StateFailed:
		return st.Error.Render(strings.TrimSpace(string(r.errCode) + " " + render.FirstLine(r.err)))
	case stateDenied:
		return st.Error.Render("denied")
	case engine.StateClosed:
		return st.Muted.Render("closed")
	}
	return ""
}

// sandboxMark is a stdio server's sandbox on its row: a lock and the
// network mode when it is confined, "open!" when it is not; nothing for a
// server without a policy (a network server).
func (p *serversPane) sandboxMark(r *serverRow) string {
	switch {
	case r.sandbox == "":
		return ""
	case strings.HasPrefix(r.sandbox, "not sandboxed"):
		return p.st.Warn.Render("unconfined") + " "
	}
	return p.st.Muted.Render("🔒"+render.ServerLine(r.sandbox)) + " "
}

func (p *serversPane) view(w, h int, focused bool) []string {
	st := p.st
	var lines []string
	listH := len(p.rows)
	if h >= 10 {
		listH = min(listH, max(3, h/2))
	} else {
		listH = min(listH, h)
	}
	if p.sel < p.offset {
		p.offset = p.sel
	}
	if p.sel >= p.offset+listH {
		p.offset = p.sel - listH + 1
	}
	nameW := 4
	for _, r := range p.rows {
		nameW = max(nameW, render.Width(render.ServerLine(r.spec.Name)))
	}
	nameW = min(nameW, max(4, (w-4)/2)) // a name keeps half the row before the state is cut
	for i := p.offset; i < len(p.rows) && i < p.offset+listH; i++ {
		r := p.rows[i]
		content := p.stateIcon(r) + " " + render.Fit(render.ServerLine(r.spec.Name), nameW) + " "
		if w >= 30 {
			content += st.Muted.Render(render.Fit(r.spec.Transport, 5)) + " "
			content += p.sandboxMark(r)
		}
		content += p.stateDetail(r)
		lines = append(lines, p.markRow(content, w, i == p.sel, focused))
	}
	if len(p.rows) == 0 {
		lines = append(lines, st.Muted.Render("no servers declared"))
		lines = append(lines, render.Wrap(st.Muted.Render("add [[mcp_servers]] to .relavium/config.toml, or try relavium demo"), w)...)
	}
	if r := p.selected(); r != nil && h-len(lines) > 2 {
		lines = append(lines, st.Separator.Render(strings.Repeat("─", w)))
		details := p.details(r, w, false)
		room := h - len(lines)
		if len(details) > room {
			details = details[:room]
		}
		lines = append(lines, details...)
	}
	return lines
}

// serverDetails is the selected server's state: in the pane (full false)
// long values (the command, the digest) on lines of their own, a path
// broken only at '/', the digest shortened and the last logs; in the
// dialog (i) everything in full.
func (p *serversPane) details(r *serverRow, w int, full bool) []string {
	st := p.st
	var out []string
	add := func(s string) { // words are never broken at a hyphen or a dot
		for i, l := range render.WrapPath(s, max(1, w-2)) {
			if i > 0 {
				l = "  " + l
			}
			out = append(out, l)
		}
	}
	add(st.Bold.Render(render.ServerLine(r.spec.Name)) + st.Muted.Render(" · "+r.spec.Transport))
	switch {
	case r.sandbox == "":
	case strings.HasPrefix(r.sandbox, "not sandboxed"):
		add(st.Warn.Render(render.ServerLine(r.sandbox)))
	default:
		add(st.Muted.Render("🔒 sandboxed · network " + render.ServerLine(r.sandbox)))
	}
	if r.sandboxNote != "" {
		add(st.Warn.Render(render.ServerLine(r.sandboxNote)))
	}
	if r.spec.Target != "" {
		for _, l := range render.WrapPath(render.ServerLine(r.spec.Target), max(1, w-2)) {
			out = append(out, "  "+st.Muted.Render(l))
		}
	}
	if r.spec.Source != "" {
		add(st.Muted.Render(render.ServerLine(r.spec.Source)))
	}
	switch r.state {
	case engine.StateReady:
		add(st.OK.Render(fmt.Sprintf("ready in %s", render.HumanDuration(msDur(r.connectMS)))))
		if r.protocol != "" {
			add(st.Muted.Render("protocol ") + render.ServerLine(r.protocol))
		}
		out = append(out, p.auth.details(r, w)...)
		skipped := 0
		for _, sk := range p.browse.skipped {
			if sk.Server == r.spec.Name {
				skipped++
			}
		}
		add(fmt.Sprintf("%d tools admitted · %d skipped", r.tools, skipped))
		if d := serverinfo.DriftDetail(st, r.lockDrift, r.lockChecked); d != "" {
			add(d)
		}
		if r.pid != 0 {
			add(st.Muted.Render(fmt.Sprintf("pid %d", r.pid)))
		}
	case engine.StateConnecting:
		add(st.Accent.Render("connecting for " + render.HumanDuration(p.now().Sub(r.since).Truncate(100*time.Millisecond))))
		if r.pid != 0 {
			add(st.Muted.Render(fmt.Sprintf("pid %d", r.pid)))
		}
	case engine.StateNeedsConsent:
		if r.spec.Held != "" {
			add(st.Warn.Render(after("held: waiting for your word on its local address "+r.spec.Held, " · ", p.waited(r.since)) + ": press a"))
			break
		}
		add(st.Warn.Render(after("waiting for your consent to start it", " · ", p.waited(r.since)) + ": press a"))
	case stateDenied:
		add(st.Error.Render("not started: consent denied this session"))
		add(st.Muted.Render("press a to be asked again"))
	case engine.StateFailed:
		if na := r.spec.NotAdmitted; na != nil {
			out = append(out, serverinfo.NotAdmitted(st, na, w)...)
			break
		}
		if si := p.auth.details(r, w); si != nil {
			out = append(out, si...)
			break
		}
		add(st.Error.Render(strings.TrimSpace(string(r.errCode) + " " + render.ServerText(r.err))))
		if r.stderr != "" {
			add(st.Muted.Render("stderr (last lines):"))
			for _, l := range render.SplitLines(strings.TrimRight(render.ServerText(r.stderr), "\n")) {
				add(st.Faint.Render("  " + l))
			}
		}
		add(st.Muted.Render(serverinfo.RetryHint(r.retryAt, r.retryN, p.now())))
	case engine.StateClosed:
		add(st.Muted.Render("closed · r to reconnect"))
	case engine.StateResolving:
		add(st.Muted.Render(after("resolving the declaration and its consent…", " ", p.waited(r.since))))
	}
	if r.digest != "" {
		out = append(out, st.Muted.Render("digest"))
		d := r.digest
		if !full && len(d) > w-3 {
			d = d[:max(8, w-3)] + "…" // i shows it whole
		}
		for _, l := range render.WrapPath(d, max(1, w-2)) {
			out = append(out, "  "+st.Faint.Render(l))
		}
	}
	logs, hidden := filterLogs(r.logs, logFloors[p.cr.logFloor])
	if hidden > 0 {
		add(st.Muted.Render(fmt.Sprintf("… %d log line(s) below %s hidden (v shows more)", hidden, logFloors[p.cr.logFloor])))
	}
	if !full && len(logs) > 3 {
		logs = logs[len(logs)-3:]
	}
	for _, l := range logs {
		add(st.LogLevel(l.Level).Render(l.Level+" ") + l.Text)
	}
	if !full {
		add(st.Faint.Render("enter its tools · i details"))
	}
	return out
}

func msDur(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

// serverDialog is the selected server's full status (i on a row), and
// what it said of itself at initialize when it did (d, ok).
func (m *Model) serverDialog(r *serverRow, d host.ServerDetails, ok bool) dialog.Dialog {
	return &dialog.Text{Title: "Server " + render.ServerLine(r.spec.Name), Max: 100, Lines: func(st *themes.Styles, iw int) []string {
		out := append(m.servers.details(r, iw, true), serverinfo.Era(m.servers.st, r.protocol, r.spec.Protocol, r.state == engine.StateReady, iw)...)
		if ok {
			out = append(out, serverinfo.Initialize(st, d, iw)...)
		}
		return out
	}}
}

// serverDetailsMsg carries a server's initialize details to the dialog.
type serverDetailsMsg struct {
	server  string
	details host.ServerDetails
	ok      bool
}

// serverDetailsCmd reads what the server said at initialize (off the
// update loop), then opens its dialog.
func (m *Model) serverDetailsCmd(server string) tea.Cmd {
	b := m.b
	return func() tea.Msg {
		d, ok := b.ServerDetails(server)
		return serverDetailsMsg{server: server, details: d, ok: ok}
	}
}

func (m *Model) onServerDetails(msg serverDetailsMsg) {
	if r := m.server(msg.server); r != nil {
		m.pushDialog(m.serverDialog(r, msg.details, msg.ok))
	}
}

// serverAct is what a key on the servers pane asks of the root: the pane
// reads the key against its own rows; acting on a server (connect, sign
// in, its tools, its details) reaches beyond the pane, so the root does it
// (serversKey).
type serverAct int

const (
	serverNone serverAct = iota
	serverApprove
	serverReconnect
	serverDisconnect
	serverPing
	serverSelect // the selection moves to the row given
	serverSignIn
	serverOpen // enter: the server's tools
	serverDetailsAct
)

// key reads a key on the pane. Approve, reconnect and disconnect act on
// the selected server only from here, where the footer lists them and the
// selection is in view: an x meant for another pane never drops a server
// and the calls running on it.
func (p *serversPane) key(msg tea.KeyMsg) (serverAct, int) {
	switch k := p.keys; {
	case key.Matches(msg, k.Approve):
		return serverApprove, p.sel
	case key.Matches(msg, k.Reconnect):
		return serverReconnect, p.sel
	case key.Matches(msg, k.Disconnect):
		return serverDisconnect, p.sel
	case key.Matches(msg, k.Ping):
		return serverPing, p.sel
	}
	sel := p.sel
	if moveKey(msg, p.keys, &sel, len(p.rows), 5) {
		return serverSelect, sel
	}
	switch r := p.selected(); {
	case r == nil:
	case key.Matches(msg, p.keys.Enter) && p.auth.wants(r):
		return serverSignIn, p.sel
	case key.Matches(msg, p.keys.Enter):
		return serverOpen, p.sel
	case key.Matches(msg, p.keys.Details):
		return serverDetailsAct, p.sel
	}
	return serverNone, p.sel
}

// serversKey carries out what a key on the servers pane asked.
func (m *Model) serversKey(msg tea.KeyMsg) tea.Cmd {
	act, i := m.servers.key(msg)
	switch act {
	case serverApprove:
		return m.approveSelected()
	case serverReconnect:
		return m.reconnectSelected()
	case serverDisconnect:
		return m.disconnectSelected()
	case serverPing:
		return m.pingSelected()
	case serverSelect:
		return m.selectServer(i)
	case serverSignIn:
		return m.startSignIn(m.selected())
	case serverOpen:
		// drill down: the server's tools, the first one under the cursor
		m.focus, m.browse.tab, m.browse.cursor, m.browse.offset = paneTools, tabTools, 0, 0
		return m.ensureBrowse()
	case serverDetailsAct:
		return m.serverDetailsCmd(m.selected().spec.Name)
	}
	return nil
}

// selectServer selects server row i (by key or mouse): the middle pane
// starts at the top of that server's list, and loads it when needed.
func (m *Model) selectServer(i int) tea.Cmd {
	if i != m.servers.sel {
		m.setSel(i)
		m.browse.cursor, m.browse.offset = 0, 0
	}
	return m.ensureBrowse()
}

func (p *serversPane) label() string { return fmt.Sprintf("SERVERS %d", len(p.rows)) }

func (p *serversPane) help() []key.Binding {
	k := p.keys
	return []key.Binding{k.NextPane, key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", p.enterOn())), k.Details, k.Approve, k.Reconnect, k.Disconnect, k.Ping}
}

// enterOn is what enter does on the selected server, for the footer.
func (p *serversPane) enterOn() string {
	if r := p.selected(); r != nil && p.auth.wants(r) {
		return "sign in"
	}
	return "its tools"
}

// setSel selects server row i. The tools filter is per server: the one
// typed for the server left is kept for it, and the server selected gets
// back its own (none at first).
func (m *Model) setSel(i int) {
	if i == m.servers.sel {
		return
	}
	from := ""
	if r := m.selected(); r != nil {
		from = r.spec.Name
	}
	m.servers.sel = i
	to := ""
	if r := m.selected(); r != nil {
		to = r.spec.Name
	}
	m.browse.switchFilter(from, to)
}

// notAdmitted reports whether the named server was not admitted.
func (p *serversPane) notAdmitted(name string) bool {
	r := p.byName(name)
	return r != nil && r.spec.NotAdmitted != nil
}
