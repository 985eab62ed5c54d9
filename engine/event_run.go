package engine

import "github.com/relavium/relavium/fault"

// RunStartedData is the payload of EventRunStarted.
type RunStartedData struct {
	Workflow   string         `json:"workflow"`
	SideEffect string         `json:"side_effect"`
	Inputs     map[string]any `json:"inputs"` // sanitized for display
	Steps      int            `json:"steps"`
}

// RunCompletedData is the payload of EventRunCompleted.
type RunCompletedData struct {
	Workflow   string         `json:"workflow"`
	Outputs    map[string]any `json:"outputs"`
	DurationMS int64          `json:"duration_ms"`
}

// RunFailedData is the payload of EventRunFailed.
type RunFailedData struct {
	Workflow   string     `json:"workflow"`
	Step       string     `json:"step,omitempty"`
	ErrorCode  fault.Code `json:"error_code"`
	Error      string     `json:"error"`
	DurationMS int64      `json:"duration_ms"`
}

// RunCancelledData is the payload of EventRunCancelled.
type RunCancelledData struct {
	Workflow   string     `json:"workflow"`
	Step       string     `json:"step,omitempty"`
	ErrorCode  fault.Code `json:"error_code"` // E609 (context) or E610 (gate refused)
	Reason     string     `json:"reason"`
	DurationMS int64      `json:"duration_ms"`
}

// GateRequestedData is the payload of EventGateRequested.
type GateRequestedData struct {
	Step    string `json:"step"`
	Message string `json:"message"` // rendered and sanitized
}

// GateResolvedData is the payload of EventGateResolved.
type GateResolvedData struct {
	Step     string `json:"step"`
	Approved bool   `json:"approved"`
	Error    string `json:"error,omitempty"` // set when asking failed
}

// IsTerminal reports whether an event type ends a run.
func IsTerminal(eventType string) bool {
	switch eventType {
	case EventRunCompleted, EventRunFailed, EventRunCancelled:
		return true
	}
	return false
}
