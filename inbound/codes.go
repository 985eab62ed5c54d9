package inbound

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// The codes of relavium's own HTTP servers' door (mcp serve's sse and http
// transports, replay --transport http): what a refusal is recorded and
// answered as.
const (
	CodeToken         fault.Code = "E426" // bearer token or bind problem; a request refused 401 for a missing or wrong bearer token
	CodeForbiddenHost fault.Code = "E433" // Host or Origin is not a name this server is reachable under (403)
	CodeBodyTooLarge  fault.Code = "E434" // an HTTP request body over MaxBodyBytes (413)
)

// Codes registers the error codes package inbound owns.
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeToken, Class: fault.Varies, Meaning: "machine token or bind problem on sse/http (mcp serve, replay --transport http); in the audit log, a request refused 401 for a missing or wrong bearer token"},
	{Code: CodeForbiddenHost, Class: fault.Failure, Meaning: "`mcp serve` (sse/http), `replay --transport http`: Host or Origin is not a name the server is reachable under (HTTP 403)"},
	{Code: CodeStdioNotMessage, Class: fault.Failure, Meaning: "`mcp serve` (stdio), `replay` (stdio): a line that is not JSON (JSON-RPC -32700) or not a JSON-RPC message (-32600); the session goes on"},
	{Code: CodeStdioLineTooBig, Class: fault.Failure, Meaning: "`mcp serve` (stdio), `replay` (stdio): a line over 4 MiB, discarded unread (-32600); the session goes on"},
	{Code: CodeStdioTooDeep, Class: fault.Failure, Meaning: "`mcp serve` (stdio), `replay` (stdio): a line nesting deeper than 512 levels, refused before decoding (-32600); the session goes on"},
	{Code: CodeBodyTooLarge, Class: fault.Failure, Meaning: "`mcp serve` (sse/http), `replay --transport http`: request body over 4 MiB (HTTP 413)"},
}
