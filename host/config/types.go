package config

import (
	"time"

	"github.com/relavium/relavium/authored"
	"github.com/relavium/relavium/sandbox"
)

// Pos is where an authored value sits (the authored layer's position).
type Pos = authored.Pos

// EnvVar is one declared environment entry of a stdio server, in authored order.
type EnvVar struct {
	Name  string
	Value string // may be a {{secrets.NAME}} reference; never logged
}

// Server is one validated server declaration (a registration, or an agent's
// inline entry, or a ref resolved to its registration).
type Server struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport"` // stdio | http | sse | websocket
	Command   string   `json:"command,omitempty"`
	Args      []string `json:"args,omitempty"`
	Env       []EnvVar `json:"-"`
	Dir       string   `json:"cwd,omitempty"` // stdio: the directory the child is spawned in
	// EnvFile is a stdio server's dotenv file (env_file, a client's
	// envFile), absolute: read at spawn under the env denylist, its path
	// and names digested, its values never.
	EnvFile            string `json:"env_file,omitempty"`
	URL                string `json:"url,omitempty"`
	AllowLocalEndpoint bool   `json:"allow_local_endpoint,omitempty"`
	// LocalHeld: the url names a loopback or private address and the
	// server comes from another client's file, which cannot opt itself in.
	// It is admitted, held: the session dials that exact address only
	// once the person approves it (package consent's local endpoints;
	// --allow-local NAME for one run). relavium's own config says
	// allow_local_endpoint = true instead, or is refused (E215).
	LocalHeld bool `json:"local_held,omitempty"`
	// Headers are a network server's static request headers; each value
	// shows as [REDACTED] (Header).
	Headers []Header `json:"headers,omitempty"`
	// HeadersHelper is a network server's headers_helper (Claude Code's
	// headersHelper): a shell line run, once consented to, before each
	// connect; its stdout is a JSON object of headers that override
	// Headers of the same name (docs/remote-servers.md). HelperDir is the
	// directory it runs in: the project.
	HeadersHelper  string        `json:"headers_helper,omitempty"`
	HelperDir      string        `json:"-"`
	ConnectTimeout time.Duration `json:"-"` // 0 = the transport's default
	CallTimeout    time.Duration `json:"-"` // call_timeout_ms: the idle call deadline; 0 = the session's
	// Protocol is the protocol era asked for: "2025-11-25", "2026-07-28"
	// or "auto"; "" is 2025-11-25.
	Protocol       string   `json:"protocol,omitempty"`
	ToolsAllowlist []string `json:"tools_allowlist,omitempty"`
	// ToolsDenylist are exact tool names never admitted (a client file's
	// disabledTools), checked as tools_allowlist is.
	ToolsDenylist []string `json:"tools_denylist,omitempty"`
	// ToolsAutoApprove are exact tool names (the server's own names) whose
	// calls are never asked about: the person's own word, never a server's.
	ToolsAutoApprove []string `json:"tools_auto_approve,omitempty"`
	Autostart        bool     `json:"autostart,omitempty"`
	// LintSuppress waives `relavium mcp lint` rules for named tools, each
	// with the person's reason (lintsuppress.go).
	LintSuppress []LintSuppression `json:"lint_suppress,omitempty"`
	// OAuth is the declared sign-in (`oauth = true` or a table); nil when
	// undeclared (an http server still signs in on a 401 Bearer challenge).
	OAuth *OAuth `json:"oauth,omitempty"`
	// Sandbox is a stdio server's declared sandbox (docs/sandbox.md); nil
	// when left out (the default policy).
	Sandbox *sandbox.Decl `json:"sandbox,omitempty"`
	// Pos is where the connection is declared: the [[mcp_servers]]
	// registration, or the agent's inline entry.
	Pos Pos `json:"source"`
	// Ref is where an agent named this registration with `ref:`; nil for a
	// registration or an inline entry.
	Ref *Pos `json:"ref,omitempty"`
	// Import is set on a server translated from another client's file
	// (Pos is where that file writes its name).
	Import *Import `json:"import,omitempty"`
}

// Config is the union of the global and project configuration files.
type Config struct {
	Home    string `json:"home"`
	Project string `json:"project"`
	Theme   string `json:"theme,omitempty"` // "" when neither file sets it (the TUI's auto)
	// Servers are the registrations, global file first, each in authored order.
	Servers []Server `json:"servers"`
	// Files are the config files that exist and were read (client files
	// included).
	Files []string `json:"files"`
	// Offered are client files found in the project that the configuration
	// does not import: listed, not used.
	Offered []Offer `json:"offered,omitempty"`
	// Warnings are deprecations (transport "sse"): the loader never prints;
	// callers show them on stderr.
	Warnings []Problem `json:"warnings,omitempty"`
	// Failed are the servers of other clients' files (discovered, imported
	// or named by --config) that cannot be admitted, each with its
	// problems: one bad entry fails only itself, the file's other servers
	// are in Servers. relavium's own config.toml stays all-or-nothing.
	Failed []FailedServer `json:"failed,omitempty"`

	// lookupEnv is the environment the files were read with (an agent's
	// inline url is checked with it too).
	lookupEnv func(string) (string, bool)
}

// FailedServer is one server of another client's file that relavium
// cannot admit: the name it would have, where it is written, and why.
type FailedServer struct {
	Name     string    `json:"name"`
	Written  string    `json:"written"` // as the file names it
	File     string    `json:"file"`
	Pos      Pos       `json:"-"`
	Problems []Problem `json:"problems"`
}

// Code is the stable code of the first problem (what a listing shows).
func (f FailedServer) Code() string {
	if len(f.Problems) == 0 {
		return ""
	}
	return string(f.Problems[0].Code)
}

// Reason is the first problem's message with its field, on one line.
func (f FailedServer) Reason() string {
	if len(f.Problems) == 0 {
		return ""
	}
	p := f.Problems[0]
	if p.Field != "" {
		return p.Field + ": " + p.Message
	}
	return p.Message
}

// Agent is a loaded agent with its servers resolved.
type Agent struct {
	Name        string    `json:"name"`
	Description string    `json:"description,omitempty"`
	File        string    `json:"file"`
	Servers     []Server  `json:"servers"`
	Warnings    []Problem `json:"warnings,omitempty"`
}

// Ref names a registration from elsewhere (a workflow's mcp_servers entry),
// optionally narrowing its tools; see (*Config).ResolveRefs.
type Ref struct {
	Name           string
	ToolsAllowlist []string
	Pos            Pos
}
