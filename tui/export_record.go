package tui

import (
	"encoding/json"

	"github.com/relavium/relavium/tui/eventstrip"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
)

// The session export holds everything the session showed: the event
// stream (servers, skipped tools, calls, their progress and logs, gates,
// elicitations, runs) and the workbench's own reads and prompt gets, which
// reach no event stream, recorded here as events of their own types.

// Export-only event types: a resource read and a prompt get.
const (
	EventResourceRead = "tui:resource_read"
	EventPromptGet    = "tui:prompt_get"
)

// maxExportProgress bounds the progress events kept for the export: a
// flood of progress never pushes the rest of the session out.
const maxExportProgress = 10_000

// readRecord is a resource read as the export records it.
type readRecord struct {
	Server     string           `json:"server"`
	URI        string           `json:"uri"`
	Args       json.RawMessage  `json:"args,omitempty"`
	Contents   []engine.Content `json:"contents,omitempty"`
	DurationMS int64            `json:"duration_ms"`
	ErrorCode  fault.Code       `json:"error_code,omitempty"`
	Error      string           `json:"error,omitempty"`
}

// promptRecord is a prompt get as the export records it.
type promptRecord struct {
	Server     string             `json:"server"`
	Prompt     string             `json:"prompt"`
	Args       json.RawMessage    `json:"args,omitempty"`
	Result     *host.PromptResult `json:"result,omitempty"`
	DurationMS int64              `json:"duration_ms"`
	ErrorCode  fault.Code         `json:"error_code,omitempty"`
	Error      string             `json:"error,omitempty"`
}

// recordJob keeps a finished read or prompt get for the export.
func (m *Model) recordJob(j *job) {
	if j == nil {
		return
	}
	ms := j.ended.Sub(j.started).Milliseconds()
	switch j.kind {
	case jobRead:
		m.log.record(engine.Event{Type: EventResourceRead, Time: j.ended, Data: readRecord{Server: j.server, URI: j.title,
			Args: j.args, Contents: j.contents, DurationMS: ms, ErrorCode: j.errCode, Error: j.errMsg}})
	case jobPrompt:
		m.log.record(engine.Event{Type: EventPromptGet, Time: j.ended, Data: promptRecord{Server: j.server, Prompt: j.title,
			Args: j.args, Result: j.prompt, DurationMS: ms, ErrorCode: j.errCode, Error: j.errMsg}})
	}
}

// eventLog is the session's events: those kept for export (bounded, the
// oldest going first; dropped counts what went), and the events strip's
// lines (package eventstrip, which says what each event adds).
type eventLog struct {
	cr           *clientState // reads: the log floor (v)
	events       []engine.Event
	strip        eventstrip.Strip
	dropped      int
	progressKept int
	closed       bool // the event stream ended
}

// record keeps an event for the session export (progress too, up to
// maxExportProgress; everything bounded, the oldest going first).
func (l *eventLog) record(e engine.Event) {
	if e.Type == engine.EventToolProgress {
		if l.progressKept >= maxExportProgress {
			l.dropped++
			return
		}
		l.progressKept++
	}
	if len(l.events) >= maxExportEvents {
		n := len(l.events) / 10
		l.events = append(l.events[:0], l.events[n:]...)
		l.dropped += n
	}
	l.events = append(l.events, e)
}
