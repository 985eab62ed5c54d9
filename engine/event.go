package engine

import (
	"encoding/json"
	"time"

	"github.com/relavium/relavium/fault"
)

// Event types: a run's lifecycle, its steps and gates, and each MCP
// server's and tool call's progress, as --events NDJSON and the TUI see them.
const (
	EventRunStarted          = "run:started"
	EventRunCompleted        = "run:completed"
	EventRunFailed           = "run:failed"
	EventRunCancelled        = "run:cancelled"
	EventServer              = "mcp:server"
	EventToolSkipped         = "mcp:tool_skipped"
	EventListChanged         = "mcp:list_changed"
	EventToolCall            = "agent:tool_call"
	EventToolProgress        = "agent:tool_progress"
	EventToolLog             = "agent:tool_log"
	EventToolResult          = "agent:tool_result"
	EventGateRequested       = "gate:requested"
	EventGateResolved        = "gate:resolved"
	EventElicitationRequest  = "elicitation:requested"
	EventElicitationResolved = "elicitation:resolved"
	EventResourceUpdated     = "mcp:resource_updated"
	// EventSandbox: a stdio server's sandbox refused something the server
	// reported (the first time only); the payload is host's.
	EventSandbox = "mcp:sandbox"
)

// Server states carried by an EventServer.
const (
	StateResolving    = "resolving"
	StateNeedsConsent = "needs-consent"
	StateConnecting   = "connecting"
	StateReady        = "ready"
	StateFailed       = "failed"
	StateClosed       = "closed"
)

// Event is one value of the event stream. Seq and Time are stamped by the
// Bus; producers fill Type, RunID and Data. Data is one of the *Data types
// below and never carries a secret value.
type Event struct {
	Seq   uint64    `json:"seq"`
	Type  string    `json:"type"`
	Time  time.Time `json:"time"`
	RunID string    `json:"run_id,omitempty"`
	Data  any       `json:"data,omitempty"`
}

// MarshalJSON flattens Data into the event object so one NDJSON line reads
// {"seq":1,"type":"mcp:server","time":"…","server":"fs","state":"ready",…}.
func (e Event) MarshalJSON() ([]byte, error) {
	head := struct {
		Seq   uint64    `json:"seq"`
		Type  string    `json:"type"`
		Time  time.Time `json:"time"`
		RunID string    `json:"run_id,omitempty"`
	}{e.Seq, e.Type, e.Time, e.RunID}
	hb, err := json.Marshal(head)
	if err != nil || e.Data == nil {
		return hb, err
	}
	db, err := json.Marshal(e.Data)
	if err != nil {
		return nil, err
	}
	if len(db) < 2 || db[0] != '{' || string(db) == "{}" {
		return hb, nil
	}
	out := make([]byte, 0, len(hb)+len(db))
	out = append(out, hb[:len(hb)-1]...)
	out = append(out, ',')
	out = append(out, db[1:]...)
	return out, nil
}

// ServerData is the payload of EventServer.
type ServerData struct {
	Server     string     `json:"server"`
	State      string     `json:"state"`
	Transport  string     `json:"transport"`
	PID        int        `json:"pid,omitempty"`
	ConnectMS  int64      `json:"connect_ms,omitempty"`
	Protocol   string     `json:"protocol,omitempty"`
	Tools      int        `json:"tools,omitempty"`
	Digest     string     `json:"digest,omitempty"`
	ErrorCode  fault.Code `json:"error_code,omitempty"`
	Error      string     `json:"error,omitempty"`
	StderrTail string     `json:"stderr_tail,omitempty"`
	// RetryMS is set on a failed network server the host dials again in
	// that many milliseconds (its RetryAttempt-th attempt).
	RetryMS      int64 `json:"retry_ms,omitempty"`
	RetryAttempt int   `json:"retry_attempt,omitempty"`
	// Sandbox is a stdio server's sandbox in a few words: its network mode
	// when it is confined ("open", "guarded", "none"), or why it is not
	// ("not sandboxed: …"); "" when the declaration carries no policy.
	Sandbox string `json:"sandbox,omitempty"`
	// SandboxPolicy is that sandbox's effective policy, as its consent
	// digest covers it (read, write, network, allow …), so the session
	// export carries what the server was confined to, not only its mode.
	SandboxPolicy json.RawMessage `json:"sandbox_policy,omitempty"`
}

// ToolSkippedData is the payload of EventToolSkipped.
type ToolSkippedData = SkippedTool

// ToolCallData is the payload of EventToolCall. Args are sanitized for display.
type ToolCallData struct {
	CallID string          `json:"call_id"`
	Tool   string          `json:"tool"`
	Server string          `json:"server"`
	Args   json.RawMessage `json:"args,omitempty"`
	Step   string          `json:"step,omitempty"` // the workflow step, in a run
}

// ToolProgressData is the payload of EventToolProgress.
type ToolProgressData struct {
	CallID string `json:"call_id"`
	Progress
}

// ToolLogData is the payload of EventToolLog.
type ToolLogData struct {
	CallID string `json:"call_id,omitempty"`
	LogEntry
}

// ToolResultData is the payload of EventToolResult.
type ToolResultData struct {
	CallID     string      `json:"call_id"`
	Tool       string      `json:"tool"`
	Result     *ToolResult `json:"result,omitempty"`
	ErrorCode  fault.Code  `json:"error_code,omitempty"`
	Error      string      `json:"error,omitempty"`
	DurationMS int64       `json:"duration_ms"`
	Step       string      `json:"step,omitempty"` // the workflow step, in a run
}

// Emitter accepts events. It never blocks the caller: host calls it from
// SDK notification goroutines.
type Emitter interface {
	Emit(Event)
}

// EmitterFunc adapts a function to an Emitter.
type EmitterFunc func(Event)

// Emit calls f(e).
func (f EmitterFunc) Emit(e Event) { f(e) }

// Discard is an Emitter that drops every event.
type Discard struct{}

// Emit drops e.
func (Discard) Emit(Event) {}
