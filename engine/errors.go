package engine

import (
	"errors"

	"github.com/relavium/relavium/fault"
)

// Error codes owned by engine (E600–E649), plus the machine surface's E450
// that a run with --plan-id returns when its plan moved.
const (
	CodeWorkflowInvalid  fault.Code = "E600" // a workflow file breaks an authored rule (positioned problems)
	CodeWorkflowNotFound fault.Code = "E601" // no .relavium/workflows/<id>.yaml
	CodeWorkflowID       fault.Code = "E602" // a workflow id that is not [a-z0-9_-]{1,64}
	CodeInputsInvalid    fault.Code = "E603" // run inputs missing, unknown or of the wrong type
	CodeToolUnknown      fault.Code = "E604" // a tool name the registry does not offer
	CodeMCPCallArgs      fault.Code = "E605" // mcp_call arguments that do not fit its schema
	CodeStepToolError    fault.Code = "E606" // a tool step's result had isError set
	CodeStepCallFailed   fault.Code = "E607" // a tool step's call failed (transport, deadline, bounds)
	CodeTemplateValue    fault.Code = "E608" // a {{…}} lookup found no value at run time
	CodeRunCancelled     fault.Code = "E609" // the run's context was cancelled (Ctrl-C, shutdown)
	CodeGateRefused      fault.Code = "E610" // a person refused a gate: the run stops, as a cancellation
	CodeGateUnanswerable fault.Code = "E611" // a gate with no one to ask and no --yes
	CodeRunOptions       fault.Code = "E612" // Run called without what the workflow needs (a bug in the caller)
	CodeGateFailed       fault.Code = "E613" // asking a gate failed (e.g. the terminal went away)
	CodePlanChanged      fault.Code = "E450" // --plan-id no longer matches the plan (docs/machine-invoker.md "Gate")
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

// IsCancellation reports whether err ended a run as a cancellation (the
// context was cancelled, or a person refused a gate) rather than a failure.
func IsCancellation(err error) bool {
	var e *Error
	if errors.As(err, &e) {
		return e.ErrCode == CodeRunCancelled || e.ErrCode == CodeGateRefused
	}
	return false
}
