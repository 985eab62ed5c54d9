package workflow

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Error codes of the workflow language (from engine's E600–E649 block; the
// codes of tool calls and of runs' cancellation by context, E604, E605,
// E607, E609 and E612, are engine's, which raises them), and E450: a run
// whose --plan-id no longer matches its plan.
const (
	CodeWorkflowInvalid  fault.Code = "E600" // a workflow file breaks an authored rule (positioned problems)
	CodeWorkflowNotFound fault.Code = "E601" // no .relavium/workflows/<id>.yaml
	CodeWorkflowID       fault.Code = "E602" // a workflow id that is not [a-z0-9_-]{1,64}
	CodeInputsInvalid    fault.Code = "E603" // run inputs missing, unknown or of the wrong type
	CodeStepToolError    fault.Code = "E606" // a tool step's result had isError set
	CodeTemplateValue    fault.Code = "E608" // a {{…}} lookup found no value at run time
	CodeGateRefused      fault.Code = "E610" // a person refused a gate: the run stops, as a cancellation
	CodeGateUnanswerable fault.Code = "E611" // a gate with no one to ask and no --yes
	CodeGateFailed       fault.Code = "E613" // asking a gate failed (e.g. the terminal went away)
	CodePlanChanged      fault.Code = "E450" // --plan-id no longer matches the plan (docs/machine-invoker.md "Gate")
)

// Codes registers the error codes package workflow owns: each code's exit
// class and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodePlanChanged, Class: fault.Usage, Meaning: "--plan-id no longer matches the plan (docs/machine-invoker.md, the confirmation gate)"},
	{Code: CodeWorkflowInvalid, Class: fault.Usage, Meaning: "a workflow file breaks an authored rule (positioned problems)"},
	{Code: CodeWorkflowNotFound, Class: fault.Usage, Meaning: "no .relavium/workflows/<id>.yaml"},
	{Code: CodeWorkflowID, Class: fault.Usage, Meaning: "a workflow id that is not [a-z0-9_-]{1,64}"},
	{Code: CodeInputsInvalid, Class: fault.Usage, Meaning: "run inputs missing, unknown or of the wrong type"},
	{Code: CodeStepToolError, Class: fault.Failure, Meaning: "a tool step's result had isError set"},
	{Code: CodeTemplateValue, Class: fault.Failure, Meaning: "a {{…}} lookup found no value at run time"},
	{Code: CodeGateRefused, Class: fault.Failure, Meaning: "a person refused a gate: the run stops, as a cancellation"},
	{Code: CodeGateUnanswerable, Class: fault.Usage, Meaning: "a gate with no one to ask and no --yes"},
	{Code: CodeGateFailed, Class: fault.Failure, Meaning: "asking a gate failed (e.g. the terminal went away)"},
}
