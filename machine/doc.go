// Package machine is relavium's machine surface: `relavium mcp serve`
// publishes relavium's own commands and the project's mcp_call workflows
// as an MCP server, through a machine invoker with exposure rules, a
// confirmation round trip and an audit log. docs/machine-invoker.md is the
// contract in full.
//
// The invoker (gate.go is its core; gate_child.go reads its child) runs a
// request {args, flags, argv, confirm} for an exposed command as a child of the same binary —
// `relavium <path> --json --project=<dir> <flags> -- <args>`, no shell, own
// process group, no stdin (exec.go) — and returns exactly one JSON
// document: the child's envelope, a confirmation, or a refusal (E420–E426,
// E432; E421 is shared with the child's path check in package invoke, and
// E450 and E460 come from the child). Which commands and flags a request
// may reach is read from invoke's command table (expose.go, schema.go,
// argv.go), so the terminal and the machine surface cannot drift. Every
// confirmation is a server-issued nonce, single use, expiring after 10
// minutes, bound to the MCP session (and bearer token) that received it, to
// the tool and to the exact request (nonce.go); a plan id never confirms by
// itself. On sse/http at most MaxSessions sessions live, idle ones close
// after 5 minutes and the least recently used idle one makes room for a new
// one (serve_sessions.go; E427 when all are busy); the HTTP layer checks the
// bearer token, Host and Origin, and the body size (serve_http.go, token.go:
// E426, E433, E434). On http both protocol eras share /mcp
// (internal/erahttp): a 2026-07-28 request is served statelessly, opens no
// session (the table neither counts nor evicts it) and its confirmations
// are bound to the bearer identity alone, since no request of that era
// carries a session. On stdio a line that is not one JSON-RPC message,
// nests past 512 or exceeds 4 MiB gets a coded JSON-RPC error and the
// session goes on (serve_stdio.go: E428–E430). Every non-read run and every
// refusal, the HTTP layer's 401/403/413/503 included, is appended to
// <home>/logs/machine-audit.jsonl (audit.go). relavium has no plugins, so
// `argv` is offered only for a leaf whose registry row sets Argv (none
// today): elsewhere it is E421. `mcp serve` publishes command tools as
// relavium-<path words joined by "-"> and mcp_call workflows as
// relavium_<id>, so a workflow id can never shadow a command. Every answer
// and every stdio message goes through invoke.MarshalJSON /
// sanitize.EscapeJSON, so server text never leaves raw.
//
// machine may import invoke (the command table, Env, the envelope and the
// coded error), internal/erahttp, workflow (the mcp_call workflows it
// publishes), engine, engine/sanitize, inbound (its stdio filter, HTTP
// guard and bearer token, which replay shares), nesting and regularfile.
// It never imports host, session or consent
// (it connects to no MCP server itself: every request runs as a child) and
// never tui. invoke never imports machine: main puts Run into
// invoke.Env.Serve (deps_test.go holds these rules).
package machine
