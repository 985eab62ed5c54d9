package invoke

// Commands returns the command table: the single description of every
// relavium command that the terminal dispatcher, help and the machine
// surface read. It is built fresh on each call; nothing here is mutable
// shared state.
func Commands() *Table {
	consentYes := &Confirm{Consent: []string{"yes"}}
	return &Table{
		Globals: []Flag{
			{Name: "project", Type: String, Usage: "project directory (default: nearest folder holding .relavium, else the working directory)"},
			{Name: "agent", Type: String, Usage: "agent NAME (.relavium/agents/NAME.yaml) or FILE whose mcp_servers to use"},
			{Name: "config", Type: StringArray, Usage: "read servers from another client's MCP FILE (mcpServers or VS Code servers JSON) instead of the relavium config (repeatable)"},
			{Name: "json", Type: Bool, Usage: "print exactly one JSON envelope on stdout; never prompt"},
			{Name: "allow-mcp-stdio", Type: StringArray, Usage: "approve a stdio server's consent DIGEST for this invocation (repeatable)"},
			{Name: "theme", Type: String, Enum: []string{"auto", "dark", "light", "high-contrast", "mono"}, // = themes.Names(), pinned by TestThemeFlagNamesEveryTheme
				Usage: "TUI theme: auto, dark, light, high-contrast, mono"},
			{Name: "record", Type: String, Usage: "write every server's JSON-RPC traffic (both directions, timed, redacted) to FILE as NDJSON", CLIOnly: true},
			{Name: "trace", Type: String, Usage: "the same as --record (one recorder, two names)", CLIOnly: true},
			{Name: "version", Type: Bool, Usage: "print the version and exit (as relavium version)"},
		},
		Commands: []*Command{
			{Path: []string{"session"}, Summary: "interactive workbench on a TTY; headless inventory otherwise",
				SideEffect: Read, JSON: true, Output: Document, Surface: CLIOnly, Run: runSession},
			{Path: []string{"demo"}, Summary: "the session on the embedded demo agent (no config needed)",
				SideEffect: Read, JSON: true, Output: Document, Surface: CLIOnly, Run: runDemo},
			{Path: []string{"demo-server"}, Summary: "serve the embedded demo MCP server",
				Flags: []Flag{
					{Name: "transport", Type: String, Default: "stdio", Enum: []string{"stdio", "http"}, Usage: "stdio or http (Streamable HTTP at /mcp)"},
					{Name: "host", Type: String, Default: "127.0.0.1", Usage: "bind address for http"},
					{Name: "port", Type: Int, Default: "3826", Usage: "port for http (0 picks a free one)"},
				},
				SideEffect: Read, JSON: false, Output: Stream, Surface: CLIOnly, Hidden: true, Run: runDemoServer},
			{Path: []string{"mcp"}, Summary: "inspect, call and serve MCP"},
			{Path: []string{"mcp", "ls"}, Summary: "connect every declared server; list servers, admitted and skipped tools",
				// mcp ls is a read the machine surface runs without an audit
				// line, so it may list only the declared servers: an ad-hoc
				// target (a dial of the client's choosing) is cli-only here.
				Flags: []Flag{
					{Name: "url", Type: String, Usage: "ad-hoc target: one unnamed server at this url", CLIOnly: true},
					{Name: "header", Type: StringArray, Usage: "a request header 'Name: value' for --url (repeatable; {{secrets.NAME}} resolved; the value is never shown)", CLIOnly: true},
					{Name: "stdio", Type: String, Usage: "ad-hoc target: one unnamed stdio server, command line split on spaces (no shell)", CLIOnly: true},
					{Name: "allow-local-endpoint", Type: Bool, Usage: "allow a loopback/private --url", CLIOnly: true},
					protocolFlag(),
				},
				SideEffect: Read, JSON: true, Output: Document, Surface: Machine, Run: runMCPList},
			{Path: []string{"mcp", "call"}, Summary: "call one tool and print its result",
				Args: []Arg{
					{Name: "TOOL", Required: true, Usage: "namespaced tool name (mcp_<server>_<tool>)"},
					{Name: "KEY=VALUE", Variadic: true, Usage: "arguments, one per key (values parsed as JSON when they parse)"},
				},
				Flags: []Flag{
					{Name: "args", Type: String, Usage: "arguments as one JSON object"},
					{Name: "timeout", Type: Duration, Default: "60s", Usage: "tools/call deadline"},
					{Name: "events", Type: Bool, Usage: "progress and logs as NDJSON events on stderr", OutputOverride: Stream},
					{Name: "url", Type: String, Usage: "ad-hoc target: one unnamed server at this url"},
					{Name: "header", Type: StringArray, Usage: "a request header 'Name: value' for --url (repeatable; {{secrets.NAME}} resolved; the value is never shown)", CLIOnly: true},
					{Name: "stdio", Type: String, Usage: "ad-hoc target: one unnamed stdio server, command line split on spaces (no shell)", CLIOnly: true},
					{Name: "allow-local-endpoint", Type: Bool, Usage: "allow a loopback/private --url", CLIOnly: true},
					protocolFlag(),
					{Name: "elicit", Type: String, Default: "decline", Enum: []string{"decline", "defaults"}, Usage: "headless answer to elicitation requests"},
					{Name: "yes", Type: Bool, Usage: "call the tool this once without asking (annotations never skip the question)", CLIOnly: true},
					{Name: "output", Type: String, Usage: "write the result text byte for byte to this file (atomically, mode 0600, replacing it); stdout says where it went", CLIOnly: true},
				},
				SideEffect: Remote, JSON: true, Output: Document, Surface: Machine, Confirm: consentYes, Run: runMCPCall},
			{Path: []string{"mcp", "accept"}, Summary: "accept a tool's changed definition (flagged until accepted); --diff shows the change",
				// Accepting a changed definition is the person's act: never
				// offered on the machine surface.
				Args: []Arg{{Name: "TOOL", Usage: "namespaced tool name (mcp_<server>_<tool>); omit with --all"}},
				Flags: []Flag{
					{Name: "all", Type: Bool, Usage: "accept every flagged tool of the declared servers"},
					{Name: "diff", Type: Bool, Usage: "show each flagged tool's field diff against the accepted definition; accept nothing"},
				},
				SideEffect: Write, JSON: true, Output: Document, Surface: CLIOnly, Run: runMCPAccept},
			{Path: []string{"mcp", "lock"}, Summary: "write .relavium/mcp-lock.json: every declared server's definitions, canonical and digested",
				Flags: []Flag{
					{Name: "file", Type: String, Usage: "the lock file (default .relavium/mcp-lock.json in the project)"},
				},
				SideEffect: Write, JSON: true, Output: Document, Surface: CLIOnly, Run: runMCPLock},
			{Path: []string{"mcp", "check"}, Summary: "compare the live servers with the lock; exit 1 with the diff when they differ",
				Flags: []Flag{
					{Name: "file", Type: String, Usage: "the lock file (default .relavium/mcp-lock.json in the project)"},
					{Name: "format", Type: String, Default: "human", Enum: []string{"human", "github"}, Usage: "human, or github (workflow annotations)"},
					{Name: "against", Type: String, Usage: "compare with the servers of a --record FILE instead of the lock"},
				},
				SideEffect: Read, JSON: true, Output: Document, Surface: CLIOnly, Run: runMCPCheck},
			{Path: []string{"mcp", "lint"}, Summary: "static checks over every tool, prompt and resource the declared servers offer (exit 1 at --fail-on)",
				Flags: []Flag{
					{Name: "fail-on", Type: String, Default: "error", Enum: []string{"error", "warning", "note", "never"}, Usage: "exit 1 when a finding of this severity or above is not suppressed"},
					{Name: "format", Type: String, Default: "human", Enum: []string{"human", "sarif"}, Usage: "human, or sarif (a SARIF 2.1.0 log on stdout)"},
				},
				SideEffect: Read, JSON: true, Output: Document, Surface: CLIOnly, Run: runMCPLint},
			{Path: []string{"mcp", "serve"}, Summary: "publish relavium's commands and mcp_call workflows as an MCP server",
				Flags: []Flag{
					{Name: "transport", Type: String, Default: "stdio", Enum: []string{"stdio", "sse", "http"}, Usage: "stdio, sse or http"},
					{Name: "host", Type: String, Default: "127.0.0.1", Usage: "bind address for sse and http"},
					{Name: "port", Type: Int, Default: "3825", Usage: "port for sse and http"},
					{Name: "allowed-host", Type: StringArray, Usage: "a host name the server is reachable under (repeatable; required for a non-loopback bind)"},
					{Name: "timeout", Type: Duration, Default: "300s", Usage: "per-request timeout"},
				},
				SideEffect: Read, JSON: false, Output: Stream, Surface: CLIOnly, Run: runMCPServe},
			{Path: []string{"replay"}, Summary: "serve a --record recording as an MCP server (answers what was recorded)",
				Args: []Arg{{Name: "FILE", Required: true, Usage: "a recording written by --record"}},
				Flags: []Flag{
					{Name: "server", Type: String, Usage: "the recorded server to serve (needed when the recording holds several)"},
					{Name: "transport", Type: String, Default: "stdio", Enum: []string{"stdio", "http"}, Usage: "stdio or http (Streamable HTTP at /mcp, loopback only)"},
					{Name: "host", Type: String, Default: "127.0.0.1", Usage: "bind address for http"},
					{Name: "port", Type: Int, Default: "3827", Usage: "port for http (0 picks a free one)"},
				},
				SideEffect: Read, JSON: false, Output: Stream, Surface: CLIOnly, Run: runReplay},
			{Path: []string{"run"}, Summary: "run a workflow",
				Args: []Arg{{Name: "WORKFLOW", Required: true, Usage: "workflow id (.relavium/workflows/<id>.yaml)"}},
				Flags: []Flag{
					{Name: "input", Type: StringArray, Usage: "workflow input KEY=VALUE (repeatable)"},
					{Name: "events", Type: Bool, Usage: "print NDJSON events on stdout", OutputOverride: Stream},
					{Name: "yes", Type: Bool, Usage: "approve every gate"},
					{Name: "plan", Type: Bool, Usage: "print the plan (steps, servers, digests, plan_id) and run nothing"},
					{Name: "plan-id", Type: String, Usage: "run only if the plan still has this id (E450 otherwise)"},
				},
				SideEffect: Write, SideEffectFor: workflowSideEffect, JSON: true, Output: Document, Surface: Machine,
				Confirm: &Confirm{Consent: []string{"yes"}, PlanFlag: "plan", IDFlag: "plan-id"}, Run: runWorkflow},
			{Path: []string{"workflow"}, Summary: "workflows"},
			{Path: []string{"workflow", "ls"}, Summary: "list the project's workflows",
				SideEffect: Read, JSON: true, Output: Document, Surface: Machine, Run: runWorkflowList},
			{Path: []string{"consent"}, Summary: "stdio spawn consent"},
			{Path: []string{"consent", "ls"}, Summary: "list remembered grants, newest first",
				SideEffect: Read, JSON: true, Output: Document, Surface: Machine, Run: runConsentList},
			{Path: []string{"consent", "digest"}, Summary: "print every declared stdio server's consent digest (for CI)",
				SideEffect: Read, JSON: true, Output: Document, Surface: Machine, Run: runConsentDigest},
			{Path: []string{"consent", "grant"}, Summary: "remember consent for a stdio server",
				Args:       []Arg{{Name: "DIGEST|SERVER", Required: true, Usage: "a v1: digest or a declared server name"}},
				Flags:      []Flag{{Name: "yes", Type: Bool, Usage: "grant without asking"}},
				SideEffect: Write, JSON: true, Output: Document, Surface: CLIOnly, Confirm: consentYes, Run: runConsentGrant},
			{Path: []string{"consent", "revoke"}, Summary: "revoke a remembered grant",
				Args:       []Arg{{Name: "DIGEST", Required: true, Usage: "the v1: digest to revoke"}},
				Flags:      []Flag{{Name: "yes", Type: Bool, Usage: "revoke without asking"}},
				SideEffect: Destructive, JSON: true, Output: Document, Surface: CLIOnly, Confirm: consentYes, Run: runConsentRevoke},
			{Path: []string{"config"}, Summary: "configuration"},
			{Path: []string{"config", "validate"}, Summary: "check every config, agent and workflow file; report all problems",
				SideEffect: Read, JSON: true, Output: Document, Surface: Machine, Run: runConfigValidate},
			{Path: []string{"version"}, Summary: "print the version",
				SideEffect: Read, JSON: true, Output: Document, Surface: Machine, Run: runVersion},
			{Path: []string{"help"}, Summary: "show help for a command",
				Args:       []Arg{{Name: "COMMAND", Variadic: true}},
				SideEffect: Read, JSON: true, Output: Document, Surface: CLIOnly, Run: runHelp},
		},
	}
}
