package backend

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/oauth"
	"github.com/relavium/relavium/session"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/workflow"
)

// Backend is everything the workbench does outside the terminal: consent,
// connections, calls, browsing, workflow runs, export. The model calls it
// only from tea.Cmds (never from Update or View), and learns what happened
// from the returned messages and the event stream. The live implementation
// (package tui/live) sits on host, consent and engine; model tests use a fake.
type Backend interface {
	// Info describes the session for the header.
	Info() SessionInfo
	// Declared lists every declared server in declaration order. It is
	// known before anything is resolved or connected.
	Declared() []ServerSpec
	// Subscribe returns a subscription to the session's event stream
	// (mcp:server, mcp:tool_skipped, agent:*, gate:*, run:*, elicitation:*).
	Subscribe() *engine.Subscription

	// Decide resolves every stdio server and decides its consent through
	// package consent (a fresh fold of the grant store each time). A
	// server whose declaration does not resolve is reported failed on the
	// event stream and has no decision.
	Decide(ctx context.Context) ([]consent.Decision, error)
	// Answer records the person's answer to a consent request through
	// package consent (remember writes a grant; once and deny are this
	// session's only).
	Answer(server string, a Answer) error
	// AnswerBinding records the person's answer to a secret binding (a
	// network server's connect refused with the bindings it needs):
	// remember writes a binding grant; once and deny are this session's.
	AnswerBinding(b *consent.Binding, a Answer) error
	// Reask forgets this session's denial of server, so the next Decide
	// asks again.
	Reask(server string) error

	// Connect connects one server (a stdio server only once Decide
	// approves it) and returns when it is ready or failed; its states go
	// to the event stream as they change.
	Connect(ctx context.Context, server string) error
	// Disconnect closes one server and reaps its processes.
	Disconnect(server string) error
	// ProvideSecret gives this session {{secrets.name}}'s value (typed by
	// the person for server, kept in memory only) for the next connect; the
	// typing binds the secret to that server's origin.
	ProvideSecret(server, name, value string)
	// SignIn signs an http server in with OAuth: shown is called with the
	// authorization url once it is known (the browser has been opened
	// for it); it returns when the tokens are stored, or fails
	// (cancelled with ctx).
	SignIn(ctx context.Context, server string, shown func(oauth.Prompt)) error
	// ServerDetails is what a connected server said of itself at
	// initialize (serverInfo, capabilities, instructions; sanitized);
	// false before it initialized.
	ServerDetails(server string) (host.ServerDetails, bool)
	// Ping pings a connected server and returns the round-trip time.
	Ping(ctx context.Context, server string) (time.Duration, error)

	// Catalogue is every connected server's admitted and skipped tools.
	Catalogue() ([]engine.ToolDef, []engine.SkippedTool)
	// Validate checks arguments against a tool's schema without calling it.
	Validate(id engine.ToolID, args json.RawMessage) error
	// Clearance says whether a call of tool may go ahead without asking
	// (consent.ClearCall over the session's tools_auto_approve and the
	// remembered approvals; never the tool's annotations, and nothing for
	// a definition changed since it was accepted). "" means ask; err is an
	// approval store that could not be read (it clears nothing).
	Clearance(tool engine.ToolDef) (consent.Clearance, error)
	// Headless is what a headless `mcp call` of tool needs on its command
	// line to run as it stands, decided as that invocation decides it
	// (session.Session.Headless): --yes, an --allow-mcp-stdio digest,
	// --allow-secret values. adhoc: it reaches the server with --stdio or
	// --url.
	Headless(tool engine.ToolDef, adhoc bool) (session.HeadlessNeeds, error)
	// Approve remembers "always for this definition" for tool.
	Approve(tool engine.ToolDef) error
	// Changes is a flagged tool's field diff against the definition the
	// person accepted.
	Changes(id engine.ToolID) ([]discovery.FieldChange, error)
	// Accept accepts a flagged tool's definition as it is now: its
	// remembered approvals lapse, and the flag is cleared.
	Accept(id engine.ToolID) error
	// Call calls a tool through the engine's registry; agent:tool_call,
	// agent:tool_progress and agent:tool_result for callID go to the event
	// stream. Cancelling ctx cancels the call at the server.
	Call(ctx context.Context, callID string, tool engine.ToolDef, args json.RawMessage) (*engine.ToolResult, error)

	ClientRequests // log levels, subscriptions, completion (clientreq.go)
	BenchRequests  // loads (bench.go)

	Resources(ctx context.Context, server string) (*host.ResourceList, error)
	ReadResource(ctx context.Context, server, uri string) ([]engine.Content, error)
	Prompts(ctx context.Context, server string) ([]host.Prompt, error)
	GetPrompt(ctx context.Context, server, name string, args map[string]string) (*host.PromptResult, error)

	// Workflows loads the project's workflows.
	Workflows() ([]*workflow.Workflow, error)
	// RunWorkflow runs wf on the session's connected servers; gate answers
	// its gate steps. Its events go to the event stream under runID.
	RunWorkflow(ctx context.Context, runID string, wf *workflow.Workflow, inputs map[string]any, gate workflow.GateFunc) (*workflow.RunResult, error)

	// Export writes events as JSONL and returns the file's path.
	Export(events []engine.Event) (string, error)
	// SaveResult writes one result document (JSON) as a file named for
	// name and returns its path.
	SaveResult(name string, doc []byte) (string, error)

	// Close tears every server down (children reaped) and ends the stream.
	Close() error
}

// Answer is the person's answer to a consent request.
type Answer int

// Consent answers.
const (
	ApproveRemember Answer = iota + 1 // write a grant and connect
	ApproveOnce                       // approve for this session only
	DenyConsent                       // do not spawn; ask again only on request
)

func (a Answer) String() string {
	switch a {
	case ApproveRemember:
		return "approved and remembered"
	case ApproveOnce:
		return "approved once"
	case DenyConsent:
		return "denied"
	}
	return "unknown"
}

// ServerSpec is one declared server as listed before anything connects.
type ServerSpec struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	// Target is what the declaration points at, for display: the authored
	// command line of a stdio server, the redacted url of a network one.
	Target string `json:"target"`
	// Protocol is the era the declaration asks for ("" is 2025-11-25).
	Protocol string `json:"protocol,omitempty"`
	// Source is where another client's file declares an imported server
	// (file:line:col, and the name it is written with when it was mapped);
	// "" for a server of relavium's own config.
	Source string `json:"source,omitempty"`
	// Inputs are the VS Code inputs an imported server's env or headers
	// name: secrets the workbench asks for when nothing holds them.
	Inputs []InputSpec `json:"inputs,omitempty"`
	// Adhoc: added from the palette while the session runs (adhoc.go); its
	// consent is never remembered.
	Adhoc bool `json:"adhoc,omitempty"`
	// AllowLocal: the ad-hoc url was opted into a loopback or private
	// address (--allow-local-endpoint).
	AllowLocal bool `json:"allow_local,omitempty"`
	// Held is set on a server of another client's file whose url names a
	// loopback or private address: that address (scheme://host:port),
	// dialled only once the person approves it (asked when it connects).
	Held string `json:"held,omitempty"`
	// NotAdmitted is set on a server of another client's file that
	// relavium cannot take (one bad entry fails only itself): its row shows
	// failed with why, and it is never resolved or connected.
	NotAdmitted *NotAdmitted `json:"not_admitted,omitempty"`
}

// NotAdmitted is why a server of a client file was not admitted: the
// first problem's code, and every problem as file:line:col: field:
// message (each message names its remedy).
type NotAdmitted struct {
	Code     fault.Code `json:"code"`
	Problems []string   `json:"problems"`
}

// InputSpec is one secret a server's file says to ask for.
type InputSpec struct {
	ID          string `json:"id"`
	Description string `json:"description,omitempty"`
}

// SessionInfo heads the screen.
type SessionInfo struct {
	Project string        `json:"project"`
	Agent   string        `json:"agent,omitempty"` // "" = every registered server
	Demo    bool          `json:"demo,omitempty"`
	Theme   themes.Choice `json:"theme"`
	// Warnings are config deprecations to show once.
	Warnings []string `json:"warnings,omitempty"`
	// Graphics is the terminal's inline-image protocol (graphics.Protocol; "" none).
	Graphics string `json:"graphics,omitempty"`
}

// LockDrift is one server's difference from the project's lock.
type LockDrift struct {
	Differences int
	First       string
}

// MessageOf is an error's message without its code prefix: the Message of
// the first error in the chain that has one (a wrapped error keeps its own
// words), else the whole text. Not fault.MessageOf, which reads only the top
// error and trims its cause: the TUI has always shown these words.
func MessageOf(err error) string {
	var m interface{ Message() string }
	if errors.As(err, &m) {
		return m.Message()
	}
	return err.Error()
}
