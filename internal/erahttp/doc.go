// Package erahttp serves one go-sdk mcp.Server over Streamable HTTP in both
// protocol eras at one endpoint.
//
// Contract:
//   - The 2026-07-28 revision is stateless: every request carries its own
//     MCP-Protocol-Version header and no session, and server/discover
//     replaces initialize. go-sdk v1.8.0's handler speaks it only when made
//     Stateless, and a stateless handler has no sessions for the legacy
//     era. Handler therefore builds two handlers of the same server from
//     the same options and routes each request by ModernRequest: a
//     2026-07-28 (or later) header without Mcp-Session-Id goes to the
//     stateless one, everything else (initialize, a session's requests, GET
//     and DELETE of a session) to the stateful one.
//   - Both keep the options' DNS-rebinding protection and body bound; the
//     router adds no state and reads no body.
//
// Allowed imports: the standard library and go-sdk's mcp package
// (deps_test.go).
package erahttp
