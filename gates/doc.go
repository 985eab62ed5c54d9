// Package gates is the room of the checks a team runs in CI against the MCP
// servers it depends on. It holds no code of its own; its sub-packages are
// the gates:
//
//   - gates/lock: the lockfile of what servers offer and the one comparison
//     behind `relavium mcp lock` and `relavium mcp check`;
//   - gates/lint: `relavium mcp lint`, the static checks over what servers
//     offer, for people, JSON and SARIF;
//   - gates/replay: a wire recording served as an MCP server
//     (`relavium replay`, and the baseline of `mcp check --against`).
//
// A gate judges what the connections report; it never connects, spawns or
// dials on its own. Imports: a gate may import the leaves (atomicfile,
// consent/canonjson, engine/sanitize, fault, regularfile), engine, and from the
// connections only host (what a connected set reports), host/discovery
// (definitions, their diffs) and host/wire (the recording format) — and,
// through host, what host stands on (the sandbox of a stdio server, the one
// redactor), which a gate never calls itself. Nothing
// below the faces imports a gate: the command line (invoke) and the
// workbench (tui) do. deps_test.go holds these rules.
package gates
