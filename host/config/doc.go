// Package config loads and validates what a person authors: the global
// (<home>/config.toml) and project (<project>/.relavium/config.toml)
// [[mcp_servers]] registrations and the agents under .relavium/agents/.
//
// Contract:
//   - Load(home, project) returns the union of both files' registrations
//     (global first) or an *Error (code E200, exit 2) holding EVERY problem
//     of both files; Validate does the same for the config files and every
//     agent file at once; (*Config).Agent / Declared read one agent.
//   - Every authored rule of docs/mcp-integration.md "Declaring a server" and
//     docs/security.md is checked here, before anything is spawned or dialled.
//     Each refusal is a Problem with a rule code (E201–E230), file, line,
//     column, field path and an actionable message: package authored's
//     Problem with the rule beside its code. TOML positions come from
//     go-toml's unstable parser; agent files go through authored's one YAML
//     reader (the policy every authored YAML file obeys); both are read
//     into one positioned tree and checked by one validator, so a
//     registration and an agent's inline entry obey the same rules.
//   - A url may hold {{env.VAR}} and {{secrets.NAME}} (url.go): where each
//     sits is consent/urlref's reading (urlref.Read), and the url they expand to with
//     Sources.LookupEnv (the environment is passed in, never read here) is
//     admitted by the guard as a literal url is; the url is kept as written.
//   - Env entries are checked with consent.CheckEnv (the shared denylist),
//     urls with netguard.AdmitURL and a network server's headers with
//     netguard.CheckHeaderName / CheckHeaderValue (E227–E230): config
//     applies those rules, it does not own them. Declared values are never
//     echoed in a message; a Header shows its value as [REDACTED].
//   - Files are read only when they are regular files (a FIFO or a device
//     a checkout links to is refused, never waited on), and a YAML escape
//     that names no Unicode character (a lone surrogate) is refused by the
//     reader rather than decoded to something other than what was written.
//   - Every file is measured by package nesting before its parser runs:
//     deeper than 64 levels or more than 20 000 values is E226 at the
//     character that passed the cap, and nothing of that file is parsed.
//   - Other clients' MCP files (package mcpjson translates them) are read
//     with LoadFrom's Sources.Files (--config) instead of the relavium files,
//     or after them when a config file says import = ["FILE", …], or, in a
//     project without .relavium/config.toml, when found beside it
//     (ProjectClientFiles); found files that are not used are Offered. Each
//     imported server is checked by the registration rules above and keeps
//     its place in the client file (Server.Pos, Server.Import); a name is
//     registered once across every source.
//   - Nothing here reads the process environment or keeps global state:
//     the relavium home and project directory are passed in.
package config
