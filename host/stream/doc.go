// Package stream is the byte stream of the connections host reads itself,
// below the SDK's decoder: what a stdio server writes on stdout before it
// becomes JSON-RPC messages, and the websocket connection.
//
// Contract:
//   - NewStdoutFilter takes the lines that cannot begin a JSON-RPC message
//     (a banner, a debug line) off a stdio server's stdout, judging a line
//     only where no value is open, whatever the read sizes; each goes to the
//     server's stderr ring prefixed "[stdout] ", the first is reported once
//     (warn), and past 1000 lines or 1 MiB of them every read fails with
//     E519 (refuse is told first). Stray counts them.
//   - NewDepthReader gauges the nesting of every message as the bytes
//     arrive: past nesting.MessageDepth the bytes before are delivered,
//     then every read fails with E518 (refuse is told first).
//   - WSConn is an mcp.Connection over a websocket (go-sdk has no websocket
//     client transport): one text message is one JSON-RPC message; Close
//     ends it at once.
//
// stream owns the codes E518 and E519 (codes.go). It may import
// engine/sanitize, fault and nesting; never host or anything above
// (deps_test.go).
package stream
