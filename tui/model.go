package tui

import (
	"context"
	"fmt"
	"time"

	"github.com/relavium/relavium/tui/asker"
	"github.com/relavium/relavium/tui/clipboard"
	"github.com/relavium/relavium/tui/serverinfo"

	"github.com/relavium/relavium/redact"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/keymap"
	"github.com/relavium/relavium/tui/wireview"
)

// browseTab is what the middle pane lists for the selected server.
type browseTab int

const (
	tabTools browseTab = iota
	tabResources
	tabPrompts
	tabWorkflows
	tabCount
)

func (t browseTab) String() string {
	return [...]string{"tools", "resources", "prompts", "workflows"}[t]
}

// short is the tab's label when the strip must be narrower: every tab
// stays in sight, however narrow the pane.
func (t browseTab) short(level int) string {
	switch level {
	case 0:
		return t.String()
	case 1:
		return [...]string{"tools", "res", "prompts", "flows"}[t]
	}
	return [...]string{"t", "r", "p", "w"}[t]
}

// serverRow is one declared server as the servers pane shows it.
type serverRow struct {
	spec      backend.ServerSpec
	state     string // engine.State*, or stateDenied
	since     time.Time
	pid       int
	connectMS int64
	protocol  string
	tools     int
	digest    string
	errCode   fault.Code
	err       string
	stderr    string
	decision  *consent.Decision // while it needs consent
	logs      []logLine         // logs not attached to a call (bounded)
	busy      bool              // a connect/disconnect is in flight
	twinOf    string            // held back while the same program's answer for twinOf is recorded
	// lockDrift is how the server differs from the project's lock
	// (lockdrift.go); lockChecked once it was compared.
	lockDrift   backend.LockDrift
	lockChecked bool
	asked       bool      // its inputs were asked for since it last connected
	retryAt     time.Time // a lost network server is dialled again then (zero: not)
	retryN      int       // the number of that attempt
	// sandbox is a stdio server's sandbox in a few words (its network
	// mode, or "not sandboxed: …"); sandboxNote the first refusal by it
	// the server reported, explained.
	sandbox     string
	sandboxNote string
}

// become puts the row in state; since moves only when the state changes,
// so a wait shows how long it has lasted.
func (r *serverRow) become(state string, now time.Time) {
	if r.state != state {
		r.state, r.since = state, now
	}
}

// stateDenied is a server the person denied this session (not an engine
// state: it never connected).
const stateDenied = "denied"

const maxServerLogs = 50

// Options configure a Model.
type Options struct {
	// Styles are the theme's styles (themes.NewStyles).
	Styles *themes.Styles
	// Now is the clock (time.Now when nil); tests fix it.
	Now func() time.Time
	// KeyClock times keys against dialogs (dialog.Guard); time.Now when
	// nil. Tests give each key its own moment.
	KeyClock func() time.Time
	// Redact is the session's one redactor: every frame passes it before
	// it reaches the terminal (nil: nothing to redact).
	Redact *redact.Set
}

// Model is the workbench's one Bubble Tea model. Components (panes, the
// form, dialogs) are plain values with methods; only Update changes state,
// and every piece of IO runs in a tea.Cmd through the Backend.
type Model struct {
	redact *redact.Set // the session's one redactor, applied to every frame
	ctx    context.Context
	b      backend.Backend
	sub    *engine.Subscription
	ask    *asker.Asker
	*ui    // styles, keys, clock, spinner frame: read by every component
	help   help.Model
	info   backend.SessionInfo

	width, height int
	focus         pane
	zoomed        bool // the focused pane takes the whole width (z)
	ticking       bool
	quitting      bool

	// The components: each holds its own state (and, in its own files,
	// its methods and drawing); Update routes messages to them.
	servers serversPane    // the servers column (pane_servers.go)
	browse  browsePane     // tools, resources, prompts, workflows and the filter (pane_tools.go)
	call    callPane       // the form, jobs, result viewer and search, history (pane_call.go)
	dialogs dialogLayer    // the overlay stack, the deliberate-key guard, consent waiting its turn
	status  statusLine     // what just happened, and the banner (status.go)
	log     eventLog       // events kept for export and the events strip (export_record.go)
	clip    clipboard.Clip // a copy riding on the frames (yank.go)
	auth    authState      // the sign-in running and the step-ups wanted (signin.go)
	cr      clientState    // logs, subscriptions, completion (clientreq.go)
}

type vpKey struct {
	job     string
	w, ver  int
	present bool
	done    bool   // the job had finished
	query   string // the search highlighted
}

// maxExportEvents bounds the events kept for export (the oldest go first).
const maxExportEvents = 100_000

// New builds the model over a backend. ctx is the session's lifetime: every
// Cmd the model starts ends with it.
func New(ctx context.Context, b backend.Backend, opts Options) *Model {
	st := opts.Styles
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	m := &Model{
		ctx:    ctx,
		redact: opts.Redact,
		b:      b,
		sub:    b.Subscribe(),
		ask:    asker.New(),
		ui:     &ui{st: st, keys: keymap.New(), now: now},
		info:   b.Info(),
	}
	m.wire()
	m.call.shown, m.call.follow = -1, true
	m.browse.resources = map[string]*host.ResourceList{}
	m.browse.prompts = map[string][]host.Prompt{}
	m.browse.errs = map[string]string{}
	m.browse.loading = map[string]bool{}
	keyClock := opts.KeyClock
	if keyClock == nil {
		keyClock = time.Now
	}
	m.dialogs.guard = dialog.NewGuard(keyClock)
	m.cr.init()
	m.help = help.New()
	m.browse.filter = textinput.New()
	m.browse.filter.Prompt = "/ "
	m.browse.filter.Placeholder = "filter tools"
	m.applyStyles(st)
	m.call.vp = viewport.New(0, 0)
	m.call.vp.MouseWheelEnabled = true
	m.call.vp.KeyMap = viewport.KeyMap{}
	notAdmitted := 0
	for _, s := range b.Declared() {
		r := &serverRow{spec: s, state: engine.StateResolving, since: now()}
		if na := s.NotAdmitted; na != nil {
			r.state, r.errCode, r.err = engine.StateFailed, na.Code, serverinfo.NotAdmittedText
			notAdmitted++
		}
		m.servers.rows = append(m.servers.rows, r)
	}
	switch {
	case len(m.info.Warnings) > 0:
		m.status.set(m.info.Warnings[0], false)
	case notAdmitted > 0:
		m.status.set(fmt.Sprintf("%d server(s) of client files not admitted: select one and press i for why and the fix", notAdmitted), true)
	}
	return m
}

// applyStyles draws everything with st from now on: the help, the
// progress bar, the filter and an open form (rebuilt with what it holds).
func (m *Model) applyStyles(st *themes.Styles) {
	m.st = st
	m.help.Styles = help.Styles{Ellipsis: st.HelpSep, ShortKey: st.HelpKey, ShortDesc: st.HelpDesc, ShortSeparator: st.HelpSep,
		FullKey: st.HelpKey, FullDesc: st.HelpDesc, FullSeparator: st.HelpSep}
	profile := st.Renderer.ColorProfile()
	fill := st.ProgressColor()
	if fill == "" {
		profile = termenv.Ascii
		fill = "#ffffff"
	}
	m.call.bar = progress.New(progress.WithSolidFill(fill), progress.WithColorProfile(profile), progress.WithoutPercentage())
	m.call.bar.EmptyColor = "#606060"
	m.browse.filter.PromptStyle, m.browse.filter.TextStyle, m.browse.filter.PlaceholderStyle = st.Accent, st.Text, st.Faint
	m.browse.filter.Cursor.Style = st.Renderer.NewStyle().Reverse(true)
	m.browse.filter.Cursor.SetMode(cursor.CursorStatic)
	if m.call.form != nil {
		m.call.form = m.call.form.Restyled(st)
	}
	m.call.vpKey = vpKey{} // results are drawn again
}

// Elicitor is the engine.Elicitor whose requests become form dialogs.
func (m *Model) Elicitor() engine.Elicitor { return m.ask }

// Shutdown ends every pending question; call it once the program ended.
func (m *Model) Shutdown() {
	m.ask.Close()
	m.sub.Close()
}

// Init starts the event reader, consent decisions, network connects and
// the question listener.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{waitEvents(m.ctx, m.sub), m.ask.Listen(), m.decideCmd("")}
	for _, r := range m.servers.rows {
		if r.spec.Transport != host.TransportStdio && r.spec.NotAdmitted == nil {
			r.busy = true
			cmds = append(cmds, m.connectCmd(r.spec.Name, false))
		}
	}
	cmds = append(cmds, m.startTicking())
	return tea.Batch(cmds...)
}

// Update is the one place state changes.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyMsg:
		for _, k := range keymap.Split(msg) {
			cmds = append(cmds, m.onKey(k))
			if m.quitting {
				break
			}
		}
		cmds = append(cmds, m.maybeComplete())
	case tea.MouseMsg:
		cmds = append(cmds, m.onMouse(msg))
	case tickMsg:
		cmds = append(cmds, m.onTick())
	case eventsMsg:
		if msg.closed {
			m.log.closed = true
		} else {
			cmds = append(cmds, m.onEvents(msg.events), waitEvents(m.ctx, m.sub))
		}
	case decidedMsg:
		cmds = append(cmds, m.onDecided(msg))
	case answeredMsg:
		cmds = append(cmds, m.onAnswered(msg))
	case connectedMsg:
		cmds = append(cmds, m.onConnected(msg))
	case disconnectedMsg:
		cmds = append(cmds, m.onDisconnected(msg))
	case serverDetailsMsg:
		m.onServerDetails(msg)
	case pingedMsg:
		m.onPinged(msg)
	case catalogueMsg:
		m.onCatalogue(msg)
	case lockDriftMsg:
		m.onLockDrift(msg)
	case validatedMsg:
		cmds = append(cmds, m.onValidated(msg))
	case clearanceMsg:
		cmds = append(cmds, m.onClearance(msg))
	case approvedMsg:
		m.onApproved(msg)
	case changesMsg:
		m.onChanges(msg)
	case acceptedMsg:
		cmds = append(cmds, m.onAccepted(msg))
	case signInPromptMsg, signInDoneMsg:
		cmds = append(cmds, m.onSignIn(msg))
	case callDoneMsg:
		cmds = append(cmds, m.onCallDone(msg))
	case readDoneMsg:
		m.onReadDone(msg)
	case promptDoneMsg:
		m.onPromptDone(msg)
	case runDoneMsg:
		m.onRunDone(msg)
	case resourcesMsg:
		m.onResources(msg)
		m.refreshPalette()
	case promptsMsg:
		m.onPrompts(msg)
		m.refreshPalette()
	case workflowsMsg:
		m.onWorkflows(msg)
		m.refreshPalette()
	case wireview.Exported:
		m.onWireExported(msg)
	case exportedMsg:
		m.onExported(msg)
	case savedMsg:
		m.onSaved(msg)
	case yankCommandMsg:
		cmds = append(cmds, m.onYankCommand(msg))
	case clipboard.SentMsg:
		m.clip.Expire(msg)
	case asker.Msg:
		cmds = append(cmds, m.onAsk(msg.Req), m.ask.Listen())
	case asker.GoneMsg:
		m.dropAsk(msg.Req)
	case clientMsg:
		cmds = append(cmds, m.onClientMsg(msg))
	case clientSideMsg:
		cmds = append(cmds, msg(m))
	case benchUpdateMsg, benchDoneMsg:
		cmds = append(cmds, m.onBench(msg))
	case statusExpiredMsg:
		if msg.seq == m.status.seq { // a newer status keeps its own time
			m.status.text, m.status.err = "", false
		}
	}
	if m.quitting {
		return m, tea.Quit
	}
	cmds = append(cmds, m.expireStatus())
	m.dialogs.guard.Note(m.topDialog())
	m.syncViewport()
	cmds = append(cmds, m.startTicking())
	return m, tea.Batch(cmds...)
}

// wire hands each component the shared ui and the neighbours it reads.
func (m *Model) wire() {
	m.servers.ui, m.servers.auth, m.servers.browse, m.servers.cr = m.ui, &m.auth, &m.browse, &m.cr
	m.browse.ui, m.browse.servers, m.browse.cr = m.ui, &m.servers, &m.cr
	m.call.ui, m.call.log = m.ui, &m.log
	m.log.cr = &m.cr
	m.auth.ui = m.ui
}

func (m *Model) server(name string) *serverRow { return m.servers.byName(name) }

func (m *Model) selected() *serverRow { return m.servers.selected() }

func (m *Model) job(id string) *job { return m.call.job(id) }

func (m *Model) pushDialog(d dialog.Dialog) { m.dialogs.stack.Push(d) }

func (m *Model) topDialog() dialog.Dialog { return m.dialogs.stack.Top() }
