// Package invoke describes every relavium command once — path, args, flags
// (type, default, secret, cli_only), side effect, JSON support, output kind,
// surface and confirm block — and runs them.
//
// The terminal dispatcher, `relavium help`, and the machine surface
// (`relavium mcp serve`) all read the one table returned by Commands, so they
// cannot drift. Every command answers --json with exactly one envelope on
// stdout ({"ok":true,"data":…} or {"ok":false,"error":{…}}); human text goes
// to stderr. Exit codes: 0 success, 1 runtime failure or failed/cancelled run,
// 2 authored or usage error, or consent no one was there to give.
// Server text never leaves raw, terminal or not: every JSON document invoke
// writes (envelopes, NDJSON events, audit lines, mcp serve answers and its
// stdio messages) goes through MarshalJSON / sanitize.EscapeJSON, and every
// human rendering (results, errors, event lines) through sanitize.Writer.
// `mcp call --output FILE` is the one way to the exact bytes (E530, E531).
//
// invoke may import session, host, consent and engine; never tui
// (deps_test.go). Every command connects servers through the session core
// (connect.go); the terminal's consent question is its Asker (prompt.go).
// The interactive session is injected by main through Env.Session: invoke
// loads a session.Workbench and hands it over.
//
// The machine surface (spec machine-invoker; gate.go is its core) runs a
// request {args, flags, argv, confirm} for an exposed command as a child of
// the same binary — `relavium <path> --json --project=<dir> <flags> -- <args>`,
// no shell, own process group, no stdin — and returns exactly one JSON
// document: the child's envelope, a confirmation, or a refusal (E420–E426,
// E432; E450 and E460 come from the child). Every confirmation is a
// server-issued nonce, single use, expiring after 10 minutes, bound to the
// MCP session (and bearer token) that received it, to the tool and to the
// exact request (nonce.go); a plan id never confirms by itself. On sse/http
// at most MaxSessions sessions live, idle ones close after 5 minutes and the
// least recently used idle one makes room for a new one (serve_sessions.go;
// E427 when all are busy). On stdio a line that is not one JSON-RPC message,
// nests past 512 or exceeds 4 MiB gets a coded JSON-RPC error and the
// session goes on (serve_stdio.go: E428–E430). Every non-read run and every
// refusal, the HTTP layer's 401/403/413/503 included, is appended to
// <home>/logs/machine-audit.jsonl. A command whose
// effective side effect is not read holds the project operation lock while
// it runs (oplock.go), typed or invoked alike. relavium has no plugins, so
// `argv` is offered only for a leaf whose registry row sets Argv (none
// today): elsewhere it is E421. `mcp serve` publishes command tools as
// relavium-<path words joined by "-"> and mcp_call workflows as
// relavium_<id>, so a workflow id can never shadow a command.
package invoke
