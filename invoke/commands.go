package invoke

import (
	"context"

	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/cmd/auth"
	configcmd "github.com/relavium/relavium/invoke/cmd/config"
	consentcmd "github.com/relavium/relavium/invoke/cmd/consent"
	"github.com/relavium/relavium/invoke/cmd/gates"
	"github.com/relavium/relavium/invoke/cmd/mcp"
	runcmd "github.com/relavium/relavium/invoke/cmd/run"
	sessioncmd "github.com/relavium/relavium/invoke/cmd/session"
)

// Main parses args against the command table, runs the command and writes
// its result. It returns the process exit code.
func Main(ctx context.Context, env *cli.Env, args []string) int {
	return cli.Dispatch(ctx, env, Commands(), args)
}

// Commands returns the command table: the single description of every
// relavium command that the terminal dispatcher, help and the machine
// surface read. It is built fresh on each call; nothing here is mutable
// shared state.
func Commands() *cli.Table {
	consentYes := &cli.Confirm{Consent: []string{"yes"}}
	return &cli.Table{
		Globals: []cli.Flag{
			{Name: "project", Type: cli.String, Usage: "project directory (default: nearest folder holding .relavium, else the working directory)"},
			{Name: "agent", Type: cli.String, Usage: "agent NAME (.relavium/agents/NAME.yaml) or FILE whose mcp_servers to use"},
			{Name: "config", Type: cli.StringArray, Usage: "read servers from another client's MCP FILE (mcpServers or VS Code servers JSON) instead of the relavium config (repeatable)"},
			{Name: "json", Type: cli.Bool, Usage: "print exactly one JSON envelope on stdout; never prompt"},
			{Name: "allow-mcp-stdio", Type: cli.StringArray, Usage: "approve a stdio server's (or a network server's headers helper's) consent DIGEST for this invocation (repeatable)"},
			{Name: "allow-secret", Type: cli.StringArray, Usage: "let a network server's headers send secret NAME to ORIGIN (NAME@ORIGIN, e.g. github_token@https://api.github.com) for this invocation (repeatable)"},
			{Name: "allow-local", Type: cli.StringArray, Usage: "dial the loopback or private address of server NAME of another client's file for this invocation (config import: write it with allow_local_endpoint = true); relavium consent grant NAME remembers it (repeatable)"},
			{Name: "theme", Type: cli.String, Enum: []string{"auto", "dark", "light", "high-contrast", "mono"}, // = themes.Names(), pinned by TestThemeFlagNamesEveryTheme
				Usage: "TUI theme: auto, dark, light, high-contrast, mono"},
			{Name: "record", Type: cli.String, Usage: "write every server's JSON-RPC traffic (both directions, timed, redacted) to FILE as NDJSON", CLIOnly: true},
			{Name: "trace", Type: cli.String, Usage: "the same as --record (one recorder, two names)", CLIOnly: true},
			{Name: "version", Type: cli.Bool, Usage: "print the version and exit (as relavium version)"},
		},
		Commands: []*cli.Command{
			{Path: []string{"session"}, Summary: "interactive workbench on a TTY; headless inventory otherwise",
				Flags:      []cli.Flag{cli.RootFlag(), cli.SessionTimeoutFlag()},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: sessioncmd.RunSession},
			{Path: []string{"demo"}, Summary: "the session on the embedded demo agent (no config needed)",
				Flags:      []cli.Flag{cli.RootFlag(), cli.SessionTimeoutFlag()},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: sessioncmd.RunDemo},
			{Path: []string{"demo-server"}, Summary: "serve the embedded demo MCP server",
				Flags: []cli.Flag{
					{Name: "transport", Type: cli.String, Default: "stdio", Enum: []string{"stdio", "http"}, Usage: "stdio or http (Streamable HTTP at /mcp)"},
					{Name: "host", Type: cli.String, Default: "127.0.0.1", Usage: "bind address for http"},
					{Name: "port", Type: cli.Int, Default: "3826", Usage: "port for http (0 picks a free one)"},
				},
				SideEffect: cli.Read, JSON: false, Output: cli.Stream, Surface: cli.CLIOnly, Hidden: true, Run: sessioncmd.RunDemoServer},
			{Path: []string{"mcp"}, Summary: "inspect, call and serve MCP"},
			{Path: []string{"mcp", "ls"}, Summary: "connect every declared server; list servers, admitted and skipped tools",
				// mcp ls is a read the machine surface runs without an audit
				// line, so it may list only the declared servers: an ad-hoc
				// target (a dial of the client's choosing) is cli-only here.
				Flags: []cli.Flag{
					{Name: "url", Type: cli.String, Usage: "ad-hoc target: one unnamed server at this url", CLIOnly: true},
					{Name: "header", Type: cli.StringArray, Usage: "a request header 'Name: value' for --url (repeatable; {{secrets.NAME}} resolved; the value is never shown)", CLIOnly: true},
					{Name: "stdio", Type: cli.String, Usage: "ad-hoc target: one unnamed stdio server, command line split on spaces (no shell)", CLIOnly: true},
					{Name: "allow-local-endpoint", Type: cli.Bool, Usage: "allow a loopback/private --url", CLIOnly: true},
					mcp.ProtocolFlag(),
				},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.Machine, Run: mcp.RunMCPList},
			{Path: []string{"mcp", "ping"}, Summary: "connect every declared server (or SERVER, or one ad-hoc server) and ping it: round-trip times",
				Args: []cli.Arg{{Name: "SERVER", Usage: "ping only this declared server"}},
				Flags: []cli.Flag{
					{Name: "count", Type: cli.Int, Default: "3", Usage: "pings per server (1 to 100)"},
					{Name: "timeout", Type: cli.Duration, Default: "10s", Usage: "deadline of one ping"},
					{Name: "url", Type: cli.String, Usage: "ad-hoc target: one unnamed server at this url"},
					{Name: "header", Type: cli.StringArray, Usage: "a request header 'Name: value' for --url (repeatable; {{secrets.NAME}} resolved; the value is never shown)"},
					{Name: "stdio", Type: cli.String, Usage: "ad-hoc target: one unnamed stdio server, command line split on spaces (no shell)"},
					{Name: "allow-local-endpoint", Type: cli.Bool, Usage: "allow a loopback/private --url"},
					mcp.ProtocolFlag(),
				},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: mcp.RunMCPPing},
			{Path: []string{"mcp", "call"}, Summary: "call one tool and print its result",
				Args: []cli.Arg{
					{Name: "TOOL", Required: true, Usage: "namespaced tool name (mcp_<server>_<tool>)"},
					{Name: "KEY=VALUE", Variadic: true, Usage: "arguments, one per key (values parsed as JSON when they parse)"},
				},
				Flags: []cli.Flag{
					{Name: "args", Type: cli.String, Usage: "arguments as one JSON object"},
					{Name: "timeout", Type: cli.Duration, Default: "60s", Usage: "tools/call deadline"},
					{Name: "events", Type: cli.Bool, Usage: "progress and logs as NDJSON events on stderr", OutputOverride: cli.Stream},
					{Name: "url", Type: cli.String, Usage: "ad-hoc target: one unnamed server at this url"},
					{Name: "header", Type: cli.StringArray, Usage: "a request header 'Name: value' for --url (repeatable; {{secrets.NAME}} resolved; the value is never shown)", CLIOnly: true},
					{Name: "stdio", Type: cli.String, Usage: "ad-hoc target: one unnamed stdio server, command line split on spaces (no shell)", CLIOnly: true},
					{Name: "allow-local-endpoint", Type: cli.Bool, Usage: "allow a loopback/private --url", CLIOnly: true},
					mcp.ProtocolFlag(),
					{Name: "elicit", Type: cli.String, Default: "decline", Enum: []string{"decline", "defaults"}, Usage: "headless answer to elicitation requests"},
					cli.SamplingReplyFlag(),
					cli.RootFlag(),
					{Name: "log-level", Type: cli.String, Default: "info", Enum: host.LogLevels(), Usage: "the log level asked of every server offering logging (logging/setLevel; debug shows everything)"},
					{Name: "task", Type: cli.Bool, Usage: "call the tool as a task (2025-11-25, experimental): wait for it (--timeout bounds the wait), then print its result; stdio, sse and websocket servers", CLIOnly: true},
					{Name: "yes", Type: cli.Bool, Usage: "call the tool this once without asking (annotations never skip the question)", CLIOnly: true},
					{Name: "output", Type: cli.String, Usage: "write the result text byte for byte to this file (atomically, mode 0600, replacing it); stdout says where it went", CLIOnly: true},
				},
				SideEffect: cli.Remote, JSON: true, Output: cli.Document, Surface: cli.Machine, Confirm: consentYes, Run: mcp.RunMCPCall},
			{Path: []string{"mcp", "bench"}, Summary: "load a tool (or a list, read or prompt) at a constant rate; latency percentiles, errors by code, charts; thresholds for CI",
				// Many calls of the person's choosing: asked once on a
				// terminal (--yes elsewhere), never on the machine surface.
				Args: []cli.Arg{
					{Name: "TOOL", Usage: "the tool to call (mcp_<server>_<tool>; an ad-hoc server's own name), the prompt for --method prompts/get, the URI for resources/read"},
					{Name: "KEY=VALUE", Variadic: true, Usage: "arguments, one per key (values parsed as JSON when they parse)"},
				},
				Flags: []cli.Flag{
					{Name: "rate", Type: cli.String, Default: "10", Usage: "open loop: requests per second, sent on schedule whatever the server does (50, 50/s, 3000/m)"},
					{Name: "duration", Type: cli.Duration, Default: "10s", Usage: "how long to measure"},
					{Name: "warmup", Type: cli.Duration, Usage: "run this long first, unmeasured"},
					{Name: "closed", Type: cli.Int, Usage: "closed loop instead: this many callers, each sending when its last answer came"},
					{Name: "connections", Type: cli.Int, Default: "1", Usage: "connect the server this many times and spread the requests over them"},
					{Name: "timeout", Type: cli.Duration, Default: "10s", Usage: "one request's deadline, from its scheduled start"},
					{Name: "method", Type: cli.String, Default: "tools/call", Enum: []string{"tools/call", "tools/list", "resources/read", "prompts/get"}, Usage: "the request to load"},
					{Name: "server", Type: cli.String, Usage: "the declared server, for --method tools/list, resources/read and prompts/get"},
					{Name: "args", Type: cli.String, Usage: "arguments as one JSON object"},
					{Name: "args-file", Type: cli.String, Usage: "NDJSON file of argument objects, sent round robin (so caches do not flatter the server)"},
					{Name: "save", Type: cli.String, Usage: "write the report as JSON to FILE (for a later --baseline)"},
					{Name: "baseline", Type: cli.String, Usage: "compare with a report --save wrote: p50/p99/rate/errors, ratio per row"},
					{Name: "max-p99", Type: cli.String, Usage: "threshold: exit 1 (E724) when p99 is above this duration (150ms)"},
					{Name: "max-error-rate", Type: cli.String, Usage: "threshold: exit 1 (E724) when more than this share failed (0.1%)"},
					{Name: "min-rate", Type: cli.String, Usage: "threshold: exit 1 (E724) when the achieved rate is below this share of --rate (95%)"},
					{Name: "url", Type: cli.String, Usage: "ad-hoc target: one unnamed server at this url"},
					{Name: "header", Type: cli.StringArray, Usage: "a request header 'Name: value' for --url (repeatable; {{secrets.NAME}} resolved; the value is never shown)"},
					{Name: "stdio", Type: cli.String, Usage: "ad-hoc target: one unnamed stdio server, command line split on spaces (no shell)"},
					{Name: "allow-local-endpoint", Type: cli.Bool, Usage: "allow a loopback/private --url"},
					mcp.ProtocolFlag(),
					{Name: "yes", Type: cli.Bool, Usage: "make the calls without asking (annotations never skip the question)"},
				},
				SideEffect: cli.Remote, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Confirm: consentYes, Run: mcp.RunMCPBench},
			{Path: []string{"mcp", "read"}, Summary: "read one resource of a declared server; --output writes its bytes to a file",
				Args: []cli.Arg{
					{Name: "SERVER", Required: true, Usage: "a declared server's name"},
					{Name: "URI", Required: true, Usage: "the resource's uri"},
				},
				Flags: []cli.Flag{
					{Name: "output", Type: cli.String, Usage: "write the resource's one part byte for byte (a blob decoded) to this file (atomically, mode 0600, replacing it)"},
					{Name: "subscribe", Type: cli.Duration, Usage: "then subscribe for this long (at most 1h) and read it again at each update"},
				},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: mcp.RunMCPRead},
			{Path: []string{"mcp", "prompts"}, Summary: "list the prompts of every declared server (or SERVER, or one ad-hoc server), with their arguments",
				Args:       []cli.Arg{{Name: "SERVER", Usage: "only this declared server"}},
				Flags:      mcp.AdhocFlags(),
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: mcp.RunMCPPrompts},
			{Path: []string{"mcp", "resources"}, Summary: "list the resources and resource templates of every declared server (or SERVER, or one ad-hoc server)",
				Args:       []cli.Arg{{Name: "SERVER", Usage: "only this declared server"}},
				Flags:      mcp.AdhocFlags(),
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: mcp.RunMCPResources},
			{Path: []string{"mcp", "prompt"}, Summary: "render one prompt (prompts/get) of a declared server (SERVER NAME) or an ad-hoc one (NAME)",
				Args: []cli.Arg{
					{Name: "SERVER", Required: true, Usage: "a declared server's name (left out with --url/--stdio)"},
					{Name: "NAME", Usage: "the prompt's name"},
					{Name: "KEY=VALUE", Variadic: true, Usage: "the prompt's arguments, one per key (strings)"},
				},
				Flags:      mcp.AdhocFlags(),
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: mcp.RunMCPPrompt},
			{Path: []string{"mcp", "complete"}, Summary: "ask a declared server to complete a prompt argument or a resource template variable",
				Args: []cli.Arg{
					{Name: "SERVER", Required: true, Usage: "a declared server's name"},
					{Name: "REF", Required: true, Usage: "prompt:NAME or resource:URI-TEMPLATE"},
					{Name: "ARG", Required: true, Usage: "the argument (or template variable) to complete"},
					{Name: "PREFIX", Usage: "what is typed of it so far (default empty)"},
				},
				Flags: []cli.Flag{
					{Name: "arg", Type: cli.StringArray, Usage: "another argument already filled in, KEY=VALUE (repeatable; sent as context)"},
				},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: mcp.RunMCPComplete},
			{Path: []string{"mcp", "tasks"}, Summary: "list the tasks a declared server holds (2025-11-25, experimental); --cancel cancels one",
				Args:       []cli.Arg{{Name: "SERVER", Required: true, Usage: "a declared server's name"}},
				Flags:      []cli.Flag{{Name: "cancel", Type: cli.String, Usage: "cancel the task of this id (tasks/cancel)"}},
				SideEffect: cli.Remote, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: mcp.RunMCPTasks},
			{Path: []string{"mcp", "accept"}, Summary: "accept a tool's changed definition (flagged until accepted); --diff shows the change",
				// Accepting a changed definition is the person's act: never
				// offered on the machine surface.
				Args: []cli.Arg{{Name: "TOOL", Usage: "namespaced tool name (mcp_<server>_<tool>); omit with --all"}},
				Flags: []cli.Flag{
					{Name: "all", Type: cli.Bool, Usage: "accept every flagged tool of the declared servers"},
					{Name: "diff", Type: cli.Bool, Usage: "show each flagged tool's field diff against the accepted definition; accept nothing"},
				},
				SideEffect: cli.Write, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: mcp.RunMCPAccept},
			{Path: []string{"mcp", "lock"}, Summary: "write .relavium/mcp-lock.json: every declared server's definitions, canonical and digested",
				Flags: []cli.Flag{
					{Name: "file", Type: cli.String, Usage: "the lock file (default .relavium/mcp-lock.json in the project)"},
				},
				SideEffect: cli.Write, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: gates.RunMCPLock},
			{Path: []string{"mcp", "check"}, Summary: "compare the live servers with the lock; exit 1 with the diff when they differ",
				Flags: []cli.Flag{
					{Name: "file", Type: cli.String, Usage: "the lock file (default .relavium/mcp-lock.json in the project)"},
					{Name: "format", Type: cli.String, Default: "human", Enum: []string{"human", "github"}, Usage: "human, or github (workflow annotations)"},
					{Name: "against", Type: cli.String, Usage: "compare with the servers of a --record FILE instead of the lock"},
				},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: gates.RunMCPCheck},
			{Path: []string{"mcp", "lint"}, Summary: "static checks over every tool, prompt and resource the declared servers offer (exit 1 at --fail-on)",
				Flags: []cli.Flag{
					{Name: "fail-on", Type: cli.String, Default: "error", Enum: []string{"error", "warning", "note", "never"}, Usage: "exit 1 when a finding of this severity or above is not suppressed"},
					{Name: "format", Type: cli.String, Default: "human", Enum: []string{"human", "sarif"}, Usage: "human, or sarif (a SARIF 2.1.0 log on stdout)"},
				},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: gates.RunMCPLint},
			{Path: []string{"mcp", "serve"}, Summary: "publish relavium's commands and mcp_call workflows as an MCP server",
				Flags: []cli.Flag{
					{Name: "transport", Type: cli.String, Default: "stdio", Enum: []string{"stdio", "sse", "http"}, Usage: "stdio, sse or http"},
					{Name: "host", Type: cli.String, Default: "127.0.0.1", Usage: "bind address for sse and http"},
					{Name: "port", Type: cli.Int, Default: "3825", Usage: "port for sse and http"},
					{Name: "allowed-host", Type: cli.StringArray, Usage: "a host name the server is reachable under (repeatable; required for a non-loopback bind)"},
					{Name: "timeout", Type: cli.Duration, Default: "300s", Usage: "per-request timeout"},
				},
				SideEffect: cli.Read, JSON: false, Output: cli.Stream, Surface: cli.CLIOnly, Run: cli.RunMCPServe},
			{Path: []string{"replay"}, Summary: "serve a --record recording as an MCP server (answers what was recorded)",
				Args: []cli.Arg{{Name: "FILE", Required: true, Usage: "a recording written by --record"}},
				Flags: []cli.Flag{
					{Name: "server", Type: cli.String, Usage: "the recorded server to serve (needed when the recording holds several)"},
					{Name: "transport", Type: cli.String, Default: "stdio", Enum: []string{"stdio", "http"}, Usage: "stdio or http (Streamable HTTP at /mcp, loopback only)"},
					{Name: "host", Type: cli.String, Default: "127.0.0.1", Usage: "bind address for http"},
					{Name: "port", Type: cli.Int, Default: "3827", Usage: "port for http (0 picks a free one)"},
				},
				SideEffect: cli.Read, JSON: false, Output: cli.Stream, Surface: cli.CLIOnly, Run: gates.RunReplay},
			{Path: []string{"run"}, Summary: "run a workflow",
				Args: []cli.Arg{{Name: "WORKFLOW", Required: true, Usage: "workflow id (.relavium/workflows/<id>.yaml)"}},
				Flags: []cli.Flag{
					{Name: "input", Type: cli.StringArray, Usage: "workflow input KEY=VALUE (repeatable)"},
					{Name: "events", Type: cli.Bool, Usage: "print NDJSON events on stdout", OutputOverride: cli.Stream},
					{Name: "yes", Type: cli.Bool, Usage: "approve every gate"},
					{Name: "plan", Type: cli.Bool, Usage: "print the plan (steps, servers, digests, plan_id) and run nothing"},
					{Name: "plan-id", Type: cli.String, Usage: "run only if the plan still has this id (E450 otherwise)"},
					cli.SamplingReplyFlag(),
					cli.RootFlag(),
				},
				SideEffect: cli.Write, SideEffectFor: runcmd.WorkflowSideEffect, JSON: true, Output: cli.Document, Surface: cli.Machine,
				Confirm: &cli.Confirm{Consent: []string{"yes"}, PlanFlag: "plan", IDFlag: "plan-id"}, Run: runcmd.RunWorkflow},
			{Path: []string{"workflow"}, Summary: "workflows"},
			{Path: []string{"workflow", "ls"}, Summary: "list the project's workflows",
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.Machine, Run: runcmd.RunWorkflowList},
			{Path: []string{"consent"}, Summary: "stdio spawn consent and secret bindings"},
			{Path: []string{"consent", "ls"}, Summary: "list remembered grants, newest first",
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.Machine, Run: consentcmd.RunConsentList},
			{Path: []string{"consent", "digest"}, Summary: "print every declared stdio server's consent digest (for CI)",
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.Machine, Run: consentcmd.RunConsentDigest},
			{Path: []string{"consent", "grant"}, Summary: "remember consent for a stdio server, a headers helper or a client file's local address, or bind a secret to an origin",
				Args:       []cli.Arg{{Name: "DIGEST|SERVER|NAME@ORIGIN", Required: true, Usage: "a v1: digest (a stdio server's or a headers helper's), a declared server name (a stdio server's program, or the held loopback/private address of a client file's server), or a secret NAME@ORIGIN a declared server's headers send"}},
				Flags:      []cli.Flag{{Name: "yes", Type: cli.Bool, Usage: "grant without asking"}},
				SideEffect: cli.Write, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Confirm: consentYes, Run: consentcmd.RunConsentGrant},
			{Path: []string{"consent", "revoke"}, Summary: "revoke a remembered grant",
				Args:       []cli.Arg{{Name: "DIGEST", Required: true, Usage: "the v1: digest to revoke"}},
				Flags:      []cli.Flag{{Name: "yes", Type: cli.Bool, Usage: "revoke without asking"}},
				SideEffect: cli.Destructive, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Confirm: consentYes, Run: consentcmd.RunConsentRevoke},
			{Path: []string{"auth"}, Summary: "OAuth sign-ins of http servers"},
			{Path: []string{"auth", "login"}, Summary: "sign a declared http server in (opens or prints the url, waits for the redirect, stores the tokens)",
				Args:       []cli.Arg{{Name: "SERVER", Required: true, Usage: "a declared server on transport http"}},
				SideEffect: cli.Write, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: auth.RunAuthLogin},
			{Path: []string{"auth", "ls"}, Summary: "list stored sign-ins: server, issuer, scopes, expiry (never tokens)",
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: auth.RunAuthList},
			{Path: []string{"auth", "logout"}, Summary: "forget a server's stored sign-ins",
				Args:       []cli.Arg{{Name: "SERVER", Required: true, Usage: "a declared server, or the name a stored sign-in was made under"}},
				SideEffect: cli.Write, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: auth.RunAuthLogout},
			{Path: []string{"config"}, Summary: "configuration"},
			{Path: []string{"config", "validate"}, Summary: "check every config, agent and workflow file; report all problems",
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.Machine, Run: configcmd.RunConfigValidate},
			{Path: []string{"config", "sources"}, Summary: "list every file servers can come from: relavium's, the project's client files, the global client files",
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: configcmd.RunConfigSources},
			{Path: []string{"config", "import"}, Summary: "print another client's MCP file as [[mcp_servers]] TOML (--write: add it to .relavium/config.toml)",
				Args:       []cli.Arg{{Name: "FILE", Required: true, Usage: "a client's MCP file (mcpServers or VS Code servers JSON)"}},
				Flags:      []cli.Flag{{Name: "write", Type: cli.Bool, Usage: "add the servers to .relavium/config.toml (atomically; created when absent)"}},
				SideEffect: cli.Write, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: configcmd.RunConfigImport},
			{Path: []string{"config", "export"}, Summary: "print a declared server as another client's MCP file entry",
				Args: []cli.Arg{{Name: "SERVER", Required: true, Usage: "a declared server's name"}},
				Flags: []cli.Flag{{Name: "format", Type: cli.String, Default: "claude", Enum: []string{"claude", "vscode", "cursor"},
					Usage: "claude (mcpServers, Claude Desktop and Claude Code), vscode (.vscode/mcp.json) or cursor (.cursor/mcp.json)"}},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: configcmd.RunConfigExport},
			{Path: []string{"version"}, Summary: "print the version",
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.Machine, Run: runVersion},
			{Path: []string{"completion"}, Summary: "print a shell completion script (bash, zsh or fish) for relavium's commands, flags and declared names",
				Args:       []cli.Arg{{Name: "SHELL", Required: true, Enum: completionShells, Usage: "bash, zsh or fish"}},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: runCompletion},
			{Path: []string{"__complete"}, Summary: "print the declared server (or locked tool) names, one a line, for shell completion; reads the config only",
				Args:       []cli.Arg{{Name: "KIND", Required: true, Enum: completeKinds, Usage: "servers or tools"}},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Hidden: true, Run: runCompleteNames},
			{Path: []string{"man"}, Summary: "print relavium's man page (roff, section 1), generated from the command table",
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: runMan},
			{Path: []string{"help"}, Summary: "show help for a command, or print a page of the reference (relavium help lists the topics)",
				Args:       []cli.Arg{{Name: "COMMAND", Variadic: true}},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: cli.RunHelp},
		},
	}
}
