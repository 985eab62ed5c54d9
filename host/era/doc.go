// Package era is MCP's two protocol eras as host speaks them.
//
// Contract:
//   - A declaration asks for ProtocolLegacy (2025-11-25, the default: the
//     initialize handshake), ProtocolModern (2026-07-28: server/discover
//     only; a server that does not speak it is a Refusal, E597 in host) or
//     ProtocolAuto; Protocols and ValidProtocol are the values accepted.
//   - EraOf says what a negotiated version means for the features that
//     differ between the eras (elicitation, logs, sampling); Negotiated is
//     the version a session settled on.
//   - DiscoverFirst keeps a 2026-07-28 connect in its era: a server/discover
//     that failed before any answer (a 401, a guard refusal, a broken
//     connection) is never followed by an initialize; a JSON-RPC answer
//     refusing it still is, so the era check can name what the server
//     speaks.
//
// The handshake itself (which era to ask first, the upgrade) stays in host,
// which owns the connection. era may import the go-sdk only; never host or
// anything of relavium (deps_test.go).
package era
