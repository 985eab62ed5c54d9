package tasks

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
)

// Task statuses.
const (
	Working       = "working"
	InputRequired = "input_required"
	Completed     = "completed"
	Failed        = "failed"
	Cancelled     = "cancelled"
)

// DefaultTTL is the task lifetime asked for (the server may choose
// another).
const DefaultTTL = 5 * time.Minute

// Task is one task as a server describes it. Status and StatusMessage are
// the server's words, cleaned as one-line fields.
type Task struct {
	Server         string `json:"server"`
	TaskID         string `json:"task_id"`
	Status         string `json:"status"`
	StatusMessage  string `json:"status_message,omitempty"`
	CreatedAt      string `json:"created_at,omitempty"`
	LastUpdatedAt  string `json:"last_updated_at,omitempty"`
	TTLMS          *int64 `json:"ttl_ms,omitempty"`
	PollIntervalMS int64  `json:"poll_interval_ms,omitempty"`
}

// Terminal reports whether the task has ended.
func (t *Task) Terminal() bool {
	return t.Status == Completed || t.Status == Failed || t.Status == Cancelled
}

// Wire is a task on the wire.
type Wire struct {
	TaskID        string   `json:"taskId"`
	Status        string   `json:"status"`
	StatusMessage string   `json:"statusMessage"`
	CreatedAt     string   `json:"createdAt"`
	LastUpdatedAt string   `json:"lastUpdatedAt"`
	TTL           *float64 `json:"ttl"`
	PollInterval  float64  `json:"pollInterval"`
}

// MaxID bounds a task id a server answers: relavium shows it, sends it
// back and keeps it in the task list.
const MaxID = 256

// Take takes a task server answered, its status message through redact;
// an unusable id is E926.
func Take(server string, w Wire, redact func(string) string) (*Task, error) {
	if w.TaskID == "" || len(w.TaskID) > MaxID || sanitize.Line(w.TaskID) != w.TaskID {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeBadTask, Exit: fault.ExitFailure,
			Msg: fmt.Sprintf("answered a task id of %d bytes that is empty, over %d bytes or not plain text; the task cannot be followed", len(w.TaskID), MaxID)}, Server: server}
	}
	t := &Task{Server: server, TaskID: w.TaskID, Status: sanitize.Line(w.Status),
		StatusMessage: sanitize.Line(redact(w.StatusMessage)), CreatedAt: sanitize.Line(w.CreatedAt),
		LastUpdatedAt: sanitize.Line(w.LastUpdatedAt), PollIntervalMS: int64(max(0, w.PollInterval))}
	if w.TTL != nil {
		ms := int64(*w.TTL)
		t.TTLMS = &ms
	}
	return t, nil
}

// Offered refuses a server whose declared tasks capability (raw) lacks
// what ("list", "cancel", "tools/call"; anything else: tasks at all), E920.
func Offered(server string, raw json.RawMessage, what string) error {
	var caps struct {
		List     json.RawMessage `json:"list"`
		Cancel   json.RawMessage `json:"cancel"`
		Requests struct {
			Tools struct {
				Call json.RawMessage `json:"call"`
			} `json:"tools"`
		} `json:"requests"`
	}
	ok := len(raw) > 0 && string(raw) != "null" && json.Unmarshal(raw, &caps) == nil
	switch what {
	case "list":
		ok = ok && len(caps.List) > 0
	case "cancel":
		ok = ok && len(caps.Cancel) > 0
	case "tools/call":
		ok = ok && len(caps.Requests.Tools.Call) > 0
	}
	if !ok {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeNotOffered, Msg: "does not offer tasks for " + what + " (capabilities.tasks)"}, Server: server}
	}
	return nil
}

// Failure keeps the refusals that say why (not offered, no raw path, a bad
// task) as they are, rather than as a call failure wrapping them.
func Failure(err error) error {
	var he *failure.Error
	if errors.As(err, &he) && (he.ErrCode == failure.CodeNoRawPath || he.ErrCode == failure.CodeNotOffered || he.ErrCode == failure.CodeBadTask) {
		return he
	}
	return err
}
