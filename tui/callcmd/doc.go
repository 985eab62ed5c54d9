// Package callcmd is the words of the headless command Y copies: the
// `relavium mcp call` that makes the same call as a tool result on show.
//
// Contract:
//   - Words is a pure function of the call (Call: the agent, the tool, its
//     arguments, how its server is reached) and of what that invocation
//     would need to run headless as it stands (session.HeadlessNeeds,
//     decided by the backend off the update loop): --yes only when it
//     would ask before the call, a declared stdio server's
//     --allow-mcp-stdio digest only when no remembered grant approves it,
//     an --allow-secret and --allow-local for each binding no remembered
//     grant covers; a server reached ad hoc (the demo's, one added from
//     the palette) is named by --stdio or --url instead.
//   - The words are unquoted: package shellcmd quotes them and lays them
//     out; the copy is sanitized and bounded by the root's clipboard.
//
// callcmd may import host and session (the transport names and the
// needs' type); never package tui nor another tui subpackage
// (tui/deps_test.go).
package callcmd
