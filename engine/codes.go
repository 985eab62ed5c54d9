package engine

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package engine owns: each code's exit class
// and what it means (the README's error-code table says the same to a
// person; the repository's README test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodePlanChanged, Class: fault.Usage, Meaning: "--plan-id no longer matches the plan (spec: machine-invoker Gate)"},
	{Code: CodeWorkflowInvalid, Class: fault.Usage, Meaning: "a workflow file breaks an authored rule (positioned problems)"},
	{Code: CodeWorkflowNotFound, Class: fault.Usage, Meaning: "no .relavium/workflows/<id>.yaml"},
	{Code: CodeWorkflowID, Class: fault.Usage, Meaning: "a workflow id that is not [a-z0-9_-]{1,64}"},
	{Code: CodeInputsInvalid, Class: fault.Usage, Meaning: "run inputs missing, unknown or of the wrong type"},
	{Code: CodeToolUnknown, Class: fault.Failure, Meaning: "a tool name the registry does not offer"},
	{Code: CodeMCPCallArgs, Class: fault.Failure, Meaning: "mcp_call arguments that do not fit its schema"},
	{Code: CodeStepToolError, Class: fault.Failure, Meaning: "a tool step's result had isError set"},
	{Code: CodeStepCallFailed, Class: fault.Failure, Meaning: "a tool step's call failed (transport, deadline, bounds)"},
	{Code: CodeTemplateValue, Class: fault.Failure, Meaning: "a {{…}} lookup found no value at run time"},
	{Code: CodeRunCancelled, Class: fault.Failure, Meaning: "the run's context was cancelled (Ctrl-C, shutdown)"},
	{Code: CodeGateRefused, Class: fault.Failure, Meaning: "a person refused a gate: the run stops, as a cancellation"},
	{Code: CodeGateUnanswerable, Class: fault.Usage, Meaning: "a gate with no one to ask and no --yes"},
	{Code: CodeRunOptions, Class: fault.Failure, Meaning: "Run called without what the workflow needs (a bug in the caller)"},
	{Code: CodeGateFailed, Class: fault.Failure, Meaning: "asking a gate failed (e.g. the terminal went away)"},
}
