package tui

import (
	"context"
	"encoding/json"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/workflow"
)

// Messages the model receives. Each is the outcome of a Cmd (IO happens
// there, never in Update) or of a request the backend sends in.

// eventsMsg is a batch of events read off the subscription: everything
// queued when the reader got to it, so a burst costs one Update and one
// frame (the bus already coalesced progress per call while we were busy).
type eventsMsg struct {
	events []engine.Event
	closed bool // the stream ended
}

// maxEventBatch bounds one batch so that a flood still yields frames.
const maxEventBatch = 4096

// waitEvents reads the next batch of events.
func waitEvents(ctx context.Context, sub *engine.Subscription) tea.Cmd {
	return func() tea.Msg {
		e, err := sub.Next(ctx)
		if err != nil {
			return eventsMsg{closed: true}
		}
		batch := []engine.Event{e}
		for len(batch) < maxEventBatch {
			e, ok := sub.TryNext()
			if !ok {
				break
			}
			batch = append(batch, e)
		}
		return eventsMsg{events: batch}
	}
}

type decidedMsg struct {
	decisions []consent.Decision
	err       error
	only      string // "" = every server; else act on this server alone
}

type answeredMsg struct {
	server string
	answer backend.Answer
	err    error
}

type connectedMsg struct {
	server string
	err    error
}

type disconnectedMsg struct {
	server string
	err    error
}

type catalogueMsg struct {
	seq     int // the request this answers: an older one never replaces a newer
	tools   []engine.ToolDef
	skipped []engine.SkippedTool
}

// clearanceMsg says whether a call may go ahead unasked.
type clearanceMsg struct {
	call      pendingCall
	clearance consent.Clearance
	err       error
}

// approvedMsg: "always for this definition" was remembered (or not: err).
type approvedMsg struct {
	tool engine.ToolDef
	err  error
}

// changesMsg carries a flagged tool's field diff, for the accept dialog.
type changesMsg struct {
	tool    engine.ToolDef
	changes []discovery.FieldChange
	err     error
}

// acceptedMsg: a flagged tool's definition was accepted (or not: err).
type acceptedMsg struct {
	tool engine.ToolDef
	err  error
}

type validatedMsg struct {
	seq  int // the form submission this answers
	args json.RawMessage
	err  error   // the first refusal (nil: valid)
	errs []error // every refusal found (validateAll)
}

type callDoneMsg struct {
	id     string
	result *engine.ToolResult
	err    error
	dur    time.Duration
}

type resourcesMsg struct {
	server string
	list   *host.ResourceList
	err    error
}

type promptsMsg struct {
	server  string
	prompts []host.Prompt
	err     error
}

type readDoneMsg struct {
	id       string
	contents []engine.Content
	err      error
	dur      time.Duration
}

type promptDoneMsg struct {
	id  string
	res *host.PromptResult
	err error
	dur time.Duration
}

type workflowsMsg struct {
	workflows []*workflow.Workflow
	err       error
}

type runDoneMsg struct {
	id  string
	res *workflow.RunResult
	err error
	dur time.Duration
}

type exportedMsg struct {
	path string
	err  error
}

// statusExpiredMsg ends the status line numbered seq (model.expireStatus).
type statusExpiredMsg struct{ seq int }

// tickMsg drives spinners and elapsed times while something is moving.
type tickMsg time.Time

const tickEvery = 120 * time.Millisecond

func tick() tea.Cmd {
	return tea.Tick(tickEvery, func(t time.Time) tea.Msg { return tickMsg(t) })
}
