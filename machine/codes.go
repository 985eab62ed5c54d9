package machine

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package machine owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeInvalidRequest, Class: fault.Usage, Meaning: "a request that is not valid for the command"},
	{Code: CodeNoDocument, Class: fault.Failure, Meaning: "the child did not print exactly one JSON object"},
	{Code: CodeTimeout, Class: fault.Failure, Meaning: "the child timed out or the request was cancelled"},
	{Code: CodeBadConfirm, Class: fault.Usage, Meaning: "a confirm value that is not a live confirmation for this request: reused, expired, unknown, issued to another session or bearer token, through another tool, or for other arguments"},
	{Code: CodeInvokerFlag, Class: fault.Usage, Meaning: "the request set a consent, plan or plan-id flag"},
	{Code: CodeSessionsFull, Class: fault.Failure, Meaning: "a new MCP session refused (HTTP 503): 64 sessions are live and every one has a request in flight"},
	{Code: CodeNoSuchCommand, Class: fault.Usage, Meaning: "no command at that path"},
}
