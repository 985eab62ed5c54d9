package tui

import (
	"context"
	"time"

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
	"github.com/relavium/relavium/oauth"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/form"
	"github.com/relavium/relavium/workflow"
)

// pane is a focusable column.
type pane int

const (
	paneServers pane = iota
	paneTools
	paneCall
	paneCount
)

func (p pane) title() string { return [...]string{"SERVERS", "TOOLS", "CALL"}[p] }

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
	spec      ServerSpec
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
	lockDrift   LockDrift
	lockChecked bool
	asked       bool      // its inputs were asked for since it last connected
	retryAt     time.Time // a lost network server is dialled again then (zero: not)
	retryN      int       // the number of that attempt
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
	// KeyClock times keys against dialogs (modal_guard.go); time.Now when
	// nil. Tests give each key its own moment.
	KeyClock func() time.Time
}

// Model is the workbench's one Bubble Tea model. Components (panes, the
// form, dialogs) are plain values with methods; only Update changes state,
// and every piece of IO runs in a tea.Cmd through the Backend.
type Model struct {
	ctx  context.Context
	b    Backend
	sub  *engine.Subscription
	ask  *asker
	st   *themes.Styles
	keys keyMap
	help help.Model
	bar  progress.Model
	now  func() time.Time
	info SessionInfo

	// signIn is the OAuth sign-in running, stepUps the servers a call
	// found wanting more scopes (signin.go).
	signIn  *signInState
	stepUps map[string]oauth.SignInData

	width, height int
	focus         pane
	frame         int // spinner frame
	ticking       bool

	servers   []*serverRow
	sel       int
	srvOffset int

	tools      []engine.ToolDef
	skipped    []engine.SkippedTool
	tab        browseTab
	allTools   bool // the tools tab lists every server's tools (ctrl+a)
	cursor     int  // row in the middle pane's list
	offset     int
	filter     textinput.Model
	filtering  bool
	rows       []listRow
	rowsKey    string
	resources  map[string]*host.ResourceList
	prompts    map[string][]host.Prompt
	browseErr  map[string]string
	loading    map[string]bool
	workflows  []*workflow.Workflow
	wfErr      string
	wfLoaded   bool
	wfLoading  bool
	catalogued bool
	catSeq     int // catalogue requests made
	catShown   int // the newest request whose answer is shown

	form    *form.Form
	formFor formTarget
	editing bool
	formSeq int
	jobs    []*job
	shown   int // index of the job on show, -1 none
	jobSeq  int
	history bool
	histSel int
	vp      viewport.Model
	vpKey   vpKey
	follow  bool
	search  resultSearch
	osc52   string // a clipboard sequence drawn with the frames (yank.go)
	yankSeq int

	overlay      dialog.Stack
	guard        keyGuard
	consentQueue []string

	status    string
	statusErr bool
	// statusSeq numbers each status; statusTimed is the last one whose
	// expiry is scheduled (a status line says what just happened, then goes).
	statusSeq, statusTimed int
	banner                 string

	events       []engine.Event
	strip        []stripLine // the events strip (strip.go)
	droppedEvts  int
	progressKept int
	streamClosed bool
	quitting     bool

	cr clientState // logs, subscriptions, completion (clientreq.go)
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
func New(ctx context.Context, b Backend, opts Options) *Model {
	st := opts.Styles
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	m := &Model{
		ctx:       ctx,
		b:         b,
		sub:       b.Subscribe(),
		ask:       newAsker(),
		st:        st,
		keys:      newKeyMap(),
		now:       now,
		info:      b.Info(),
		shown:     -1,
		resources: map[string]*host.ResourceList{},
		prompts:   map[string][]host.Prompt{},
		browseErr: map[string]string{},
		loading:   map[string]bool{},
		follow:    true,
	}
	m.guard.now = opts.KeyClock
	if m.guard.now == nil {
		m.guard.now = time.Now
	}
	m.guard.start = m.guard.now()
	m.cr.init()
	m.help = help.New()
	m.filter = textinput.New()
	m.filter.Prompt = "/ "
	m.filter.Placeholder = "filter tools"
	m.applyStyles(st)
	m.vp = viewport.New(0, 0)
	m.vp.MouseWheelEnabled = true
	m.vp.KeyMap = viewport.KeyMap{}
	for _, s := range b.Declared() {
		m.servers = append(m.servers, &serverRow{spec: s, state: engine.StateResolving, since: now()})
	}
	if len(m.info.Warnings) > 0 {
		m.setStatus(m.info.Warnings[0], false)
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
	m.bar = progress.New(progress.WithSolidFill(fill), progress.WithColorProfile(profile), progress.WithoutPercentage())
	m.bar.EmptyColor = "#606060"
	m.filter.PromptStyle, m.filter.TextStyle, m.filter.PlaceholderStyle = st.Accent, st.Text, st.Faint
	m.filter.Cursor.Style = st.Renderer.NewStyle().Reverse(true)
	m.filter.Cursor.SetMode(cursor.CursorStatic)
	if m.form != nil {
		m.form = m.form.Restyled(st)
	}
	m.vpKey = vpKey{} // results are drawn again
}

// Elicitor is the engine.Elicitor whose requests become form dialogs.
func (m *Model) Elicitor() engine.Elicitor { return m.ask }

// Shutdown ends every pending question; call it once the program ended.
func (m *Model) Shutdown() {
	m.ask.close()
	m.sub.Close()
}

// Init starts the event reader, consent decisions, network connects and
// the question listener.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{waitEvents(m.ctx, m.sub), m.ask.listen(), m.decideCmd("")}
	for _, r := range m.servers {
		if r.spec.Transport != host.TransportStdio {
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
		for _, k := range splitKeys(msg) {
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
			m.streamClosed = true
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
	case exportedMsg:
		m.onExported(msg)
	case savedMsg:
		m.onSaved(msg)
	case yankSentMsg:
		if msg.seq == m.yankSeq {
			m.osc52 = ""
		}
	case askMsg:
		cmds = append(cmds, m.onAsk(msg.req), m.ask.listen())
	case askGoneMsg:
		m.dropAsk(msg.req)
	case clientMsg:
		cmds = append(cmds, m.onClientMsg(msg))
	case clientSideMsg:
		cmds = append(cmds, msg(m))
	case statusExpiredMsg:
		if msg.seq == m.statusSeq { // a newer status keeps its own time
			m.status, m.statusErr = "", false
		}
	}
	if m.quitting {
		return m, tea.Quit
	}
	cmds = append(cmds, m.expireStatus())
	m.guard.note(m.topDialog())
	m.syncViewport()
	cmds = append(cmds, m.startTicking())
	return m, tea.Batch(cmds...)
}

func (m *Model) server(name string) *serverRow {
	for _, r := range m.servers {
		if r.spec.Name == name {
			return r
		}
	}
	return nil
}

func (m *Model) selected() *serverRow {
	if m.sel < 0 || m.sel >= len(m.servers) {
		return nil
	}
	return m.servers[m.sel]
}

func (m *Model) job(id string) *job {
	for i := len(m.jobs) - 1; i >= 0; i-- {
		if m.jobs[i].id == id {
			return m.jobs[i]
		}
	}
	return nil
}

func (m *Model) pushDialog(d dialog.Dialog) { m.overlay.Push(d) }

func (m *Model) topDialog() dialog.Dialog { return m.overlay.Top() }

// recordEvent keeps an event for the session export (progress too, up to
// maxExportProgress; everything bounded, the oldest going first).
func (m *Model) recordEvent(e engine.Event) {
	if e.Type == engine.EventToolProgress {
		if m.progressKept >= maxExportProgress {
			m.droppedEvts++
			return
		}
		m.progressKept++
	}
	if len(m.events) >= maxExportEvents {
		n := len(m.events) / 10
		m.events = append(m.events[:0], m.events[n:]...)
		m.droppedEvts += n
	}
	m.events = append(m.events, e)
}
