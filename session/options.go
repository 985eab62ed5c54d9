package session

import (
	"context"
	"github.com/relavium/relavium/redact"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/wire"
	"github.com/relavium/relavium/oauth"
)

// Options are what a face knows about the person's environment; nothing
// here is read from the process itself.
type Options struct {
	// Home is the relavium home: grants, approvals, pins and secrets.
	Home string
	// Environ is relavium's environment (stdio children inherit only its
	// allowlisted names); LookupEnv reads one variable (PATH, secrets).
	Environ   []string
	LookupEnv func(string) (string, bool)
	// AllowStdio are digests the person approved on the command line
	// (--allow-mcp-stdio).
	AllowStdio []string
	// TypedStdio names the ad-hoc stdio server whose command line the
	// person typed on the command line (mcp ls/call --stdio): their own
	// command, as if typed in a shell, so it is approved for this session
	// without a digest, never remembered. A program a file names (a
	// declaration, an imported client file) always asks; so does a command
	// line a machine client sends through mcp serve. "" for none.
	TypedStdio string
	// AllowSecret are NAME@ORIGIN secret bindings the person approved on
	// the command line (--allow-secret).
	AllowSecret []string
	// AllowLocal are servers of another client's file whose loopback or
	// private address the person approved on the command line
	// (--allow-local NAME): dialled for this run.
	AllowLocal []string
	// Version is reported to servers as clientInfo.version.
	Version string
	// Now is the clock grants are stamped with.
	Now func() time.Time
	// Redact is the session's one redactor: every secret it injects or
	// holds is added (host does as it resolves them; a typed secret when
	// it is typed), and the face applies it where text leaves (nil: New
	// makes one; Session.Redactor returns it).
	Redact *redact.Set
	// Asker asks the person; nil when no one can be asked.
	Asker Asker
	// Elicitor answers server elicitation (nil declines every request).
	Elicitor engine.Elicitor
	// URLElicitation says the Elicitor can show the person a screened url
	// (url-mode elicitation is declared and asked, not declined).
	URLElicitation bool
	// Sampler answers sampling/createMessage (nil declines with E901).
	Sampler engine.Sampler
	// Sandbox is what a stdio server's default sandbox is derived from and
	// what applies it (docs/sandbox.md).
	Sandbox Sandboxing
	// Roots are the directories offered to servers as roots; nil offers
	// none (the faces pass the project directory, or --root).
	Roots []string
	// CallCap caps a call's active time when the call sets no timeout of
	// its own (the session's --timeout).
	CallCap time.Duration
	// Events receives every mcp:server, mcp:tool_skipped and call event.
	Events engine.Emitter
	// Warn receives a warning the person should see once (a grant store
	// that could not be trusted when no question says so); nil drops it.
	Warn func(msg string)
	// AdhocName is the name of the one server given on the command line
	// (--url): a guard refusal of it names the flag as the remedy.
	AdhocName string
	// Timeouts lowers the connect, discovery and call deadlines (tests).
	Timeouts host.Timeouts
	// HelperTimeout bounds a headers helper's run (0: 10 s, Claude Code's).
	HelperTimeout time.Duration
	// Wire records every server's JSON-RPC traffic (--record; nil: none).
	Wire *wire.Hub
	// SignIn lets a Streamable HTTP server's sign-in reach the person (the
	// browser step); nil uses stored tokens only and names
	// `relavium auth login SERVER` when one is needed.
	SignIn *oauth.Interactive
	// LogLevel is the logging/setLevel asked of every server offering
	// logging when it connects ("" = info).
	LogLevel string
	// Reconnect dials a lost network server again with backoff (the
	// workbench); nil leaves it failed (one-shot commands).
	Reconnect *host.ReconnectPolicy
}

// Sandboxing is what a stdio server's default sandbox is derived from
// (with the roots, which it may write) and what applies it.
type Sandboxing struct {
	// Project is the project directory, readable by default.
	Project string
	// UserHome is the person's home directory: never made readable as a
	// program's installation.
	UserHome string
	// Launcher is relavium's own executable, whose hidden sandbox-exec
	// confines a server; "" confines nothing (every surface says so).
	Launcher string
	// Getenv is relavium's environment, which an {{env.VAR}} in a stdio
	// server's command or cwd is read from when it is resolved (nil: every
	// variable unset).
	Getenv func(string) string
}

// Asker is the person, as the face that owns the terminal asks them.
type Asker interface {
	// Consent asks whether the pending stdio server of d may start: its
	// name, command line, cwd, env names, digest and the diff against the
	// closest earlier grant are in d.
	Consent(ctx context.Context, d consent.Decision) (Answer, error)
	// Recorded says that the answer to d was recorded (a grant written for
	// ApproveRemember).
	Recorded(d consent.Decision, a Answer)
	// Bind asks whether a secret of the person's stores may be sent to a
	// network origin: the secret's name (never its value), the origin,
	// the header names that carry it and the digest are in d, in the
	// vocabulary of Consent. The same answers: remember (a binding grant),
	// once, deny.
	Bind(ctx context.Context, d consent.BindingDecision) (Answer, error)
	// BindRecorded says that the answer to d was recorded.
	BindRecorded(d consent.BindingDecision, a Answer)
	// ConfirmCall asks whether a call of def may go ahead: this call,
	// always for this definition (offered only when canRemember), or no.
	// The server's annotations are shown as its own claim; they never
	// skip the question.
	ConfirmCall(ctx context.Context, def engine.ToolDef, canRemember bool) (CallAnswer, error)
}

// CallAnswer is the person's answer to a call confirmation.
type CallAnswer int

// Call confirmation answers.
const (
	CallRefused CallAnswer = iota // no (the default, as is end of input)
	CallOnce                      // this call
	CallAlways                    // always for this definition: an approval is remembered
)

// Answer is the person's answer to a consent request.
type Answer int

// Consent answers.
const (
	Deny            Answer = iota // do not spawn; ask again only on request
	ApproveRemember               // write a grant and connect
	ApproveOnce                   // approve for this session only
)

func (o *Options) getenv(name string) string {
	if o.LookupEnv == nil {
		return ""
	}
	v, _ := o.LookupEnv(name)
	return v
}

func (o *Options) events() engine.Emitter {
	if o.Events == nil {
		return engine.Discard{}
	}
	return o.Events
}
