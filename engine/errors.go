package engine

import "github.com/relavium/relavium/fault"

// Error codes engine raises (from the E600–E649 block; the workflow
// language's codes are package workflow's).
const (
	CodeToolUnknown    fault.Code = "E604" // a tool name the registry does not offer
	CodeMCPCallArgs    fault.Code = "E605" // mcp_call arguments that do not fit its schema
	CodeStepCallFailed fault.Code = "E607" // a tool step's call failed (transport, deadline, bounds)
	CodeRunCancelled   fault.Code = "E609" // the run's context was cancelled (Ctrl-C, shutdown)
	CodeRunOptions     fault.Code = "E612" // Run called without what the workflow needs (a bug in the caller)
)

// Error is engine's coded error for everything that is not a problem list:
// fault's error (code, message, cause, exit) and where a run stopped.
type Error struct {
	fault.Base
	// RunID and Step name where a run stopped, when it did.
	RunID string
	Step  string
	// Extra is carried in the envelope data.
	Extra map[string]any
}

// ErrorData names the run and step, when there are any.
func (e *Error) ErrorData() any {
	if e.RunID == "" && e.Step == "" && len(e.Extra) == 0 {
		return nil
	}
	d := map[string]any{}
	if e.RunID != "" {
		d["run_id"] = e.RunID
	}
	if e.Step != "" {
		d["step"] = e.Step
	}
	for k, v := range e.Extra {
		d[k] = v
	}
	return d
}
