package host

import (
	"github.com/relavium/relavium/host/headers"
	"strings"
	"time"

	"github.com/relavium/relavium/redact"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/deadline"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/secrets"
	"github.com/relavium/relavium/host/wire"
)

// Transports a Server may use: netguard's names (declared there once),
// under host's name for the callers that build a Server.
const (
	TransportStdio     = netguard.TransportStdio
	TransportHTTP      = netguard.TransportHTTP      // Streamable HTTP
	TransportSSE       = netguard.TransportSSE       // the legacy HTTP+SSE transport (deprecated alias of http)
	TransportWebsocket = netguard.TransportWebsocket // local only, admitted by the guard
)

// The deadlines (docs/mcp-integration.md "Connect and call deadlines").
const (
	DefaultStdioConnect   = 120 * time.Second         // spawn through initialize
	DefaultNetworkConnect = 30 * time.Second          // dial through initialize
	DefaultDiscovery      = discovery.DefaultDeadline // the WHOLE tools/list walk (one constant, discovery's)
	DefaultCall           = 60 * time.Second          // one tools/call
	MaxConnectTimeout     = 600 * time.Second         // connect_timeout_ms may raise a connect deadline up to this
	DefaultEOFWait        = 100 * time.Millisecond    // stdin EOF → SIGTERM: a server may exit on EOF by itself
	DefaultGrace          = time.Second               // SIGTERM → SIGKILL (must be > 0.5 s)
	MaxResultText         = 1 << 20                   // one result's text, summed across parts
)

// ProtocolVersion is the MCP protocol version relavium asks for unless a
// declaration asks for another era (Endpoint.Protocol, protocol.go).
//
// Why not the SDK's default (2026-07-28, SEP-2575): that default sends
// server/discover first and falls back to initialize, which costs an extra
// round trip against every stateful Streamable HTTP server; under it the SDK
// forbids server→client elicitation (servers must switch to MRTR), sends no
// log notifications unless every request carries a log-level _meta, and
// opens no standalone SSE stream. The peers relavium is measured against
// (the TypeScript SDK 1.32, server-everything, server-filesystem, the
// conformance suite's client scenarios) speak 2025-11-25 at most, and the
// conformance `initialize` scenario accepts only 2025-06-18 or 2025-11-25.
// 2025-11-25 is the newest version everything in that set speaks with the
// classic initialize handshake; a server that answers an older supported
// version (down to 2024-11-05) is accepted as negotiated.
const ProtocolVersion = "2025-11-25"

// Endpoint is one server to connect, as admitted: a declaration (a
// config.Server) after consent resolved its program or the network guard
// admitted its url. Exactly one of Stdio (stdio) or Target (http, sse,
// websocket) is set. (Named apart from config.Server, the authored
// declaration it comes from.)
type Endpoint struct {
	Name      string
	Transport string
	// Stdio is the consent-approved, resolved declaration: the absolute
	// command the digest names, the tagged env, the digested cwd. Only an
	// approved declaration may be passed here.
	Stdio *consent.Resolved
	// Target is the url as the network guard admitted it. There is no other
	// way to reach a network server.
	Target *netguard.Target
	// URL is the url as written when it holds references: what reports,
	// pins and the lock show, never the values Target was expanded with.
	URL string
	// ConnectTimeout raises the transport's connect deadline (≤ 10 min);
	// 0 keeps the default.
	ConnectTimeout time.Duration
	// ToolsAllowlist narrows the admitted tools, when non-empty.
	ToolsAllowlist []string
	// ToolsDenylist names tools never admitted (skipped in_denylist).
	ToolsDenylist []string
	// Headers are a network server's static request headers, sent on
	// every request (and the websocket handshake); {{secrets.NAME}} in a
	// value is resolved before anything is dialled (headers.go).
	Headers []Header
	// BoundSecrets are the secrets the person bound to this server's
	// origin (package consent's secret bindings, decided by the session):
	// a header naming any other {{secrets.NAME}} is refused (E523) before
	// anything is dialled — the backstop of the session's decision.
	BoundSecrets []string
	// HeadersHelper is the server's consent-approved headers helper (nil: none; host/headers).
	HeadersHelper *headers.Helper
	// Protocol is the era asked for: era.ProtocolLegacy (also ""),
	// era.ProtocolModern or era.ProtocolAuto (host/era).
	Protocol string
	// OAuth signs requests in on a Streamable HTTP server (go-sdk's
	// OAuthHandler: called on 401 and 403); nil sends no Authorization.
	OAuth auth.OAuthHandler
	// CallTimeout is the server's idle call deadline (call_timeout_ms); 0
	// keeps the session's.
	CallTimeout time.Duration

	// memory is an in-process server's transport (tests and benchmarks).
	memory mcp.Transport
}

// NotStarted is a declared server that was deliberately not started (the
// person denied consent). It is reported as failed with Reason, and does not
// fail the start.
type NotStarted struct {
	Name      string
	Transport string
	Digest    string
	Code      fault.Code
	Reason    string
}

// Timeouts overrides the connect, discovery and call deadlines (zero keeps each default). Tests
// lower them; commands pass --timeout through CallOptions instead.
type Timeouts struct {
	StdioConnect   time.Duration
	NetworkConnect time.Duration
	Discovery      time.Duration
	Call           time.Duration
}

// Options configures Start.
type Options struct {
	Servers    []Endpoint
	NotStarted []NotStarted
	// Home is the relavium home (tool pins live there).
	Home string
	// Environ is relavium's own environment; a stdio child inherits only its
	// allowlisted names (HOME LOGNAME PATH SHELL TERM USER LANG LC_* TZ).
	Environ []string
	// Secrets resolves {{secrets.NAME}} in declared env.
	Secrets secrets.SecretStore
	// Redact is the session's one redactor (package redact): every secret
	// value a connection injects or holds (env secrets, header values,
	// OAuth tokens) is added to it, and every text a server hands back is
	// passed through it. nil: the host keeps one of its own.
	Redact *redact.Set
	// Emitter receives mcp:server, mcp:tool_skipped, agent:tool_progress,
	// agent:tool_log and elicitation events. It must never block.
	Emitter engine.Emitter
	// Elicitor answers server elicitation requests; nil declines them all.
	Elicitor engine.Elicitor
	// URLElicitation declares url-mode elicitation: the Elicitor can show
	// the person a screened url (ElicitRequest.URL). Without it a url-mode
	// request is declined.
	URLElicitation bool
	// Sampler answers sampling/createMessage; nil declines every request
	// (E901). Sampling is declared either way (clientside.go).
	Sampler engine.Sampler
	// SandboxLauncher is relavium's own executable: a stdio server whose
	// Resolved carries an enabled sandbox policy is spawned through its
	// hidden sandbox-exec (package sandbox). "" confines nothing, and every
	// surface says so ("not sandboxed: …"); sandbox = "required" then
	// refuses to start (E340).
	SandboxLauncher string
	// SandboxProject is the project directory a sandbox policy's "the
	// project directory" reads (its "the roots" write Roots).
	SandboxProject string
	// Roots are the directories offered as roots (each must be an existing
	// directory; symlinks are resolved). nil declares no roots capability;
	// an empty non-nil list declares it with no root yet.
	Roots []string
	// CallCap caps a call's active time when its CallOptions.Timeout is 0
	// (the session's --timeout; 0: deadline.DefaultHardCap).
	CallCap time.Duration
	// Clock is the time call deadlines and the sampling rate limit read
	// (nil: the real clock; tests inject one).
	Clock deadline.Clock
	// Guard is the network guard every Target was admitted by.
	Guard *netguard.Guard
	// ClientVersion is reported to servers as clientInfo.version.
	ClientVersion string
	// LogLevel is the logging/setLevel sent to servers that offer logging
	// (default "info").
	LogLevel string
	// EOFWait is how long a stdio server may take to exit on stdin EOF
	// before its group gets SIGTERM (default 100 ms).
	EOFWait time.Duration
	// Grace is how long SIGTERM has before SIGKILL (default 1 s; a value
	// of 0.5 s or less is raised to the default).
	Grace    time.Duration
	Timeouts Timeouts
	// Wire records every server's JSON-RPC traffic (nil: nothing is
	// recorded): `--record`, and what a protocol view subscribes to.
	Wire *wire.Hub
	// Reconnect dials a lost network server again with backoff
	// (reconnect.go); nil leaves it failed (one-shot commands).
	Reconnect *ReconnectPolicy
}

func (o *Options) withDefaults() {
	if o.Redact == nil {
		o.Redact = redact.New()
	}
	if o.Emitter == nil {
		o.Emitter = engine.Discard{}
	}
	if o.LogLevel == "" {
		o.LogLevel = "info"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	if o.Grace <= 500*time.Millisecond {
		o.Grace = DefaultGrace
	}
	if o.EOFWait <= 0 {
		o.EOFWait = DefaultEOFWait
	}
	t := &o.Timeouts
	if t.StdioConnect <= 0 {
		t.StdioConnect = DefaultStdioConnect
	}
	if t.NetworkConnect <= 0 {
		t.NetworkConnect = DefaultNetworkConnect
	}
	if t.Discovery <= 0 {
		t.Discovery = DefaultDiscovery
	}
	if t.Call <= 0 {
		t.Call = DefaultCall
	}
}

// connectTimeout is the server's connect deadline.
func (o *Options) connectTimeout(s *Endpoint) time.Duration {
	if s.ConnectTimeout > 0 {
		return min(s.ConnectTimeout, MaxConnectTimeout)
	}
	if s.Transport == TransportStdio {
		return o.Timeouts.StdioConnect
	}
	return o.Timeouts.NetworkConnect
}

// shownURL is the url reports show: as written, no query or fragment.
func (e *Endpoint) shownURL() string {
	if e.URL == "" {
		return e.Target.Redacted()
	}
	if i := strings.IndexAny(e.URL, "?#"); i >= 0 {
		return e.URL[:i]
	}
	return e.URL
}
