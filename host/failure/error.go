package failure

import (
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
)

// Error codes of host's connections (E500–E549, E59x, E880, E92x). They
// are stable: docs/error-codes.md documents them and scripts match on them.
const (
	CodeStartFailed       fault.Code = "E500" // one or more servers failed to start; every failure is listed
	CodeSpawnFailed       fault.Code = "E501" // the stdio command could not be started
	CodeConnectDeadline   fault.Code = "E502" // spawn/dial through initialize outlived the connect deadline
	CodeInitializeFailed  fault.Code = "E503" // the initialize handshake failed (or the server exited during it)
	CodeDiscoveryFailed   fault.Code = "E504" // the tools/list walk failed
	CodeServerExited      fault.Code = "E505" // a stdio server exited (during a call or mid-session)
	CodeConnectionLost    fault.Code = "E506" // a network session ended unexpectedly
	CodeCallDeadline      fault.Code = "E510" // a tools/call outlived its deadline
	CodeCallCancelled     fault.Code = "E511" // a call, connect or discovery was cancelled (Ctrl-C, TUI cancel, shutdown)
	CodeResultTooLarge    fault.Code = "E512" // a result's text, summed across parts, exceeds 1 MiB
	CodeUnknownTool       fault.Code = "E513" // a ToolID this host never admitted
	CodeServerNotReady    fault.Code = "E514" // the tool's server failed or closed
	CodeCallFailed        fault.Code = "E515" // the call failed at the protocol or transport level
	CodeHostClosed        fault.Code = "E516" // the host is closed
	CodeBadOptions        fault.Code = "E517" // Start called with options it cannot honour (a caller bug)
	CodeSecretMissing     fault.Code = "E520" // a {{secrets.NAME}} with no value in any secret store
	CodeEnvRefUnset       fault.Code = "E880" // an {{env.VAR}} with no default whose variable is not set at spawn
	CodeSecretUnbound     fault.Code = "E523" // a network server's header names a secret not bound to its origin
	CodeHelperFailed      fault.Code = "E524" // a headers helper could not start, exited non-zero or outlived its deadline
	CodeHelperOutput      fault.Code = "E525" // a headers helper's output is not a JSON object of header values relavium may send
	CodeHeader            fault.Code = "E594" // a static header that cannot be sent (reserved or malformed name, bad resolved value, too many)
	CodeCredentialRefused fault.Code = "E595" // a server with a static Authorization header answered 401 or 403
	CodeProtocolEra       fault.Code = "E597" // protocol = "2026-07-28" and the server does not speak it

	CodeNotOffered           fault.Code = "E920" // the server does not declare the capability the request needs
	CodeLogLevelUnknown      fault.Code = "E921" // a log level that is not one of MCP's eight
	CodeTooManySubscriptions fault.Code = "E922" // one server already has 256 subscriptions
	CodeBadCompletionRef     fault.Code = "E923" // a completion reference that is neither ref/prompt nor ref/resource
	CodePingFailed           fault.Code = "E598" // a ping got no answer within its deadline, or an error
	CodeSessionGone          fault.Code = "E599" // the server answered 404 for its session (restarted, or the session expired)
	CodeNoRawPath            fault.Code = "E925" // a request go-sdk has no API for, on a connection relavium does not read itself
	CodeBadTask              fault.Code = "E926" // a task the server answered has an id that is empty, over 256 bytes or not plain text
)

// Error is host's coded error: fault's (code, message, cause, exit, data)
// and the server the failure belongs to, with its stderr tail and exit status.
type Error struct {
	fault.Base
	// Server names the server the failure belongs to, when there is one.
	Server string
	// StderrTail is the last lines a stdio server wrote to stderr (secrets
	// redacted), when the failure is that server's.
	StderrTail string
	// ExitStatus describes how a stdio server ended ("exit status 3",
	// "signal: killed"), when it did.
	ExitStatus string

	// Parts are the failures an E520 naming several missing secrets is
	// made of: each of them.
	Parts []*Error
	// Secret names the secret an E520 (or one of its Parts) lacks.
	Secret string
}

func (e *Error) Error() string {
	msg := string(e.ErrCode) + ": " + e.Message()
	if e.Cause != nil {
		cause := e.Cause.Error()
		// A cause carrying the same code (the guard's refusal kept for its
		// data) is not made to say the code twice.
		if c, ok := e.Cause.(interface{ Code() fault.Code }); ok && c.Code() == e.ErrCode {
			cause = strings.TrimPrefix(cause, string(e.ErrCode)+": ")
		}
		msg += ": " + cause
	}
	return msg
}

// Message is the human message without code or cause.
func (e *Error) Message() string {
	if e.Server != "" {
		return "server " + e.Server + ": " + e.Msg
	}
	return e.Msg
}

// ErrorData returns the envelope data: the explicit Data, else the server's
// exit status and stderr tail when there are some.
func (e *Error) ErrorData() any {
	if e.Data != nil {
		return e.Data
	}
	if e.Server == "" && e.StderrTail == "" && e.ExitStatus == "" {
		return nil
	}
	d := map[string]any{}
	if e.Server != "" {
		d["server"] = e.Server
	}
	if e.ExitStatus != "" {
		d["exit_status"] = e.ExitStatus
	}
	if e.StderrTail != "" {
		d["stderr_tail"] = e.StderrTail
	}
	return d
}

// WriteHuman prints the error, then the server's stderr tail indented. What
// a server said (a cause, a tail) is cleaned of terminal control sequences
// before it reaches the person's terminal.
func (e *Error) WriteHuman(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "relavium: %s\n", sanitize.Text(e.Error()))
	WriteTail(&b, e.ExitStatus, e.StderrTail)
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteTail prints a server's exit status and stderr tail, indented
// under its failure, cleaned for the terminal.
func WriteTail(b *strings.Builder, status, tail string) {
	if status != "" {
		fmt.Fprintf(b, "    %s\n", sanitize.Line(status))
	}
	if tail == "" {
		return
	}
	b.WriteString("    stderr (last lines):\n")
	for _, line := range strings.Split(strings.TrimRight(sanitize.Text(tail), "\n"), "\n") {
		fmt.Fprintf(b, "      | %s\n", line)
	}
}
