package failure

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package failure owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Concat(codes, clientCodes) }

var codes = fault.Table{
	{Code: CodeStartFailed, Class: fault.Failure, Meaning: "one or more servers failed to start; every failure is listed"},
	{Code: CodeSpawnFailed, Class: fault.Failure, Meaning: "the stdio command could not be started"},
	{Code: CodeConnectDeadline, Class: fault.Failure, Meaning: "spawn/dial through initialize outlived the connect deadline"},
	{Code: CodeInitializeFailed, Class: fault.Failure, Meaning: "the initialize handshake failed (or the server exited during it)"},
	{Code: CodeDiscoveryFailed, Class: fault.Failure, Meaning: "the tools/list walk failed"},
	{Code: CodeServerExited, Class: fault.Failure, Meaning: "a stdio server exited (during a call or mid-session)"},
	{Code: CodeConnectionLost, Class: fault.Failure, Meaning: "a network session ended unexpectedly"},
	{Code: CodeCallDeadline, Class: fault.Failure, Meaning: "a tools/call outlived its deadline"},
	{Code: CodeCallCancelled, Class: fault.Failure, Meaning: "a call, connect or discovery was cancelled (Ctrl-C, TUI cancel, shutdown)"},
	{Code: CodeResultTooLarge, Class: fault.Failure, Meaning: "a result's text, summed across parts, exceeds 1 MiB"},
	{Code: CodeUnknownTool, Class: fault.Failure, Meaning: "a ToolID this host never admitted"},
	{Code: CodeServerNotReady, Class: fault.Failure, Meaning: "the tool's server failed or closed"},
	{Code: CodeCallFailed, Class: fault.Failure, Meaning: "the call failed at the protocol or transport level"},
	{Code: CodeHostClosed, Class: fault.Failure, Meaning: "the host is closed"},
	{Code: CodeBadOptions, Class: fault.Failure, Meaning: "Start called with options it cannot honour (a caller bug)"},
	{Code: CodeProtocolEra, Class: fault.Failure, Meaning: "the server does not speak protocol 2026-07-28, which its declaration (or --protocol) asks for"},
	{Code: CodePingFailed, Class: fault.Failure, Meaning: "a ping got an error, or no answer within its deadline"},
	{Code: CodeSessionGone, Class: fault.Failure, Meaning: "a network server answered 404 for its session (it restarted, or the session expired); its calls in flight fail"},
	{Code: CodeSecretMissing, Class: fault.Varies, Meaning: "a {{secrets.NAME}} with no value in any secret store"},
	{Code: CodeEnvRefUnset, Class: fault.Usage, Meaning: "an {{env.VAR}} with no default whose variable is not set in relavium's environment at spawn"},
	{Code: CodeSecretUnbound, Class: fault.Usage, Meaning: "a network server's header names a secret the session did not bind to its origin (the backstop of consent's E323: nothing is read or sent)"},
	{Code: CodeCredentialRefused, Class: fault.Failure, Meaning: "a server with a static Authorization header answered 401 or 403: the token is wrong, expired or not allowed this (such a server is never probed for OAuth; the secrets to update are named, never a value)"},
	{Code: CodeHelperFailed, Class: fault.Failure, Meaning: "a network server's headers helper could not start, exited non-zero or did not answer within its 10 s (it is stopped, its process group killed); its stderr tail is shown, redacted"},
	{Code: CodeHelperOutput, Class: fault.Failure, Meaning: "a network server's headers helper printed something other than one JSON object of header names to string values relavium may send (over 64 KiB, not JSON, a value not a string, a reserved or malformed name, a value with CR, LF or another control character, too many headers); no value is shown"},
	{Code: CodeHeader, Class: fault.Usage, Meaning: "a network server's static header cannot be sent: a reserved or malformed name, a value (once its secrets are resolved) holding CR, LF, NUL or another control character (C1 such as U+0085 NEL included), a line or paragraph separator (U+2028, U+2029) or a byte that is not UTF-8, edge white space or over 8 KiB, or too many headers; the value is never shown"},
	{Code: CodeNotOffered, Class: fault.Failure, Meaning: "the server does not declare the capability the request needs (logging, completions, resource subscriptions, tasks)"},
	{Code: CodeLogLevelUnknown, Class: fault.Usage, Meaning: "a log level that is not one of debug, info, notice, warning, error, critical, alert, emergency"},
	{Code: CodeTooManySubscriptions, Class: fault.Failure, Meaning: "one server already has 256 resource subscriptions in this session"},
	{Code: CodeBadCompletionRef, Class: fault.Usage, Meaning: "a completion reference that is neither ref/prompt nor ref/resource"},
	{Code: CodeNoRawPath, Class: fault.Failure, Meaning: "a task request on a Streamable HTTP server: go-sdk v1.8.0 has no task API, and relavium sends task requests only on connections it reads itself (stdio, sse, websocket)"},
	{Code: CodeBadTask, Class: fault.Failure, Meaning: "a task the server answered has an id that is empty, over 256 bytes or not plain text: it cannot be shown, followed or cancelled"},
}

// Error codes of the client's side of MCP (sampling, roots), in the range
// E901–E919 that host shares with the faces.
const (
	CodeSamplingDeclined    fault.Code = "E901" // a sampling request declined: no answerer, or the person declined or went away
	CodeSamplingRateLimited fault.Code = "E902" // a server asked for sampling too often: declined unasked
	CodeBadRoot             fault.Code = "E903" // a root that is not an absolute path to an existing directory
)

var clientCodes = fault.Table{
	{Code: CodeSamplingDeclined, Class: fault.Failure, Meaning: "a sampling request was declined: no one answers sampling here (headless without --sampling-reply), or the person declined or went away; the server gets this code"},
	{Code: CodeSamplingRateLimited, Class: fault.Failure, Meaning: "a server asked for sampling more than 10 times a minute (bursts of 5): declined unasked"},
	{Code: CodeBadRoot, Class: fault.Usage, Meaning: "a root that is not an absolute path to an existing directory (symlinks resolved), or roots edited where none are offered"},
}
