package machine

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package machine owns: each code's exit class
// and what it means (the README's error-code table says the same to a
// person; the repository's README test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeInvalidRequest, Class: fault.Usage, Meaning: "a request that is not valid for the command"},
	{Code: CodeNoDocument, Class: fault.Failure, Meaning: "the child did not print exactly one JSON object"},
	{Code: CodeTimeout, Class: fault.Failure, Meaning: "the child timed out or the request was cancelled"},
	{Code: CodeBadConfirm, Class: fault.Usage, Meaning: "a confirm value that is not a live confirmation for this request: reused, expired, unknown, issued to another session or bearer token, through another tool, or for other arguments"},
	{Code: CodeInvokerFlag, Class: fault.Usage, Meaning: "the request set a consent, plan or plan-id flag"},
	{Code: CodeToken, Class: fault.Varies, Meaning: "machine token or bind problem on sse/http; in the audit log, a request refused 401 for a missing or wrong bearer token"},
	{Code: CodeSessionsFull, Class: fault.Failure, Meaning: "a new MCP session refused (HTTP 503): 64 sessions are live and every one has a request in flight"},
	{Code: CodeStdioNotMessage, Class: fault.Failure, Meaning: "`mcp serve` (stdio): a line that is not JSON (JSON-RPC -32700) or not a JSON-RPC message (-32600); the session goes on"},
	{Code: CodeStdioLineTooBig, Class: fault.Failure, Meaning: "`mcp serve` (stdio): a line over 4 MiB, discarded unread (-32600); the session goes on"},
	{Code: CodeStdioTooDeep, Class: fault.Failure, Meaning: "`mcp serve` (stdio): a line nesting deeper than 512 levels, refused before decoding (-32600); the session goes on"},
	{Code: CodeNoSuchCommand, Class: fault.Usage, Meaning: "no command at that path"},
	{Code: CodeForbiddenHost, Class: fault.Failure, Meaning: "`mcp serve` (sse/http): Host or Origin is not a name the server is reachable under (HTTP 403)"},
	{Code: CodeBodyTooLarge, Class: fault.Failure, Meaning: "`mcp serve` (sse/http): request body over 4 MiB (HTTP 413)"},
}
