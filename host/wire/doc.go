// Package wire records the JSON-RPC traffic of MCP server connections:
// the one mechanism behind `--record FILE` (alias `--trace FILE`), what
// `relavium replay` serves, and what a protocol view subscribes to.
//
// Contract:
//
//   - A Hub collects the Records of every server of a session; Server
//     returns one server's Recorder (nil Hub: a nil Recorder, whose taps
//     pass everything through untouched, so an unrecorded session pays
//     nothing).
//   - A Recorder taps a connection where the wire is: a stdio child's
//     stdout and stdin as newline-delimited bytes (Lines, LineWriter), an
//     HTTP client's request and response bodies, JSON or SSE (RoundTripper),
//     any other transport at its connection (Transport). So each message is
//     recorded as the server sent it: a tools/list page that discovery
//     takes off the stream before the SDK decodes it is recorded whole.
//   - Every message is one Record: direction, time, size, kind, method, id,
//     and for a response the method and round-trip time of its request
//     (paired by id). The message is kept redacted: the connection's own
//     redaction (injected secret values, the url's query) and every string
//     member whose key names a credential (token, secret, password,
//     authorization, api key, cookie) become "[redacted]". No HTTP header
//     is ever recorded. A message over 4 MiB (the guard's bound) is
//     recorded by size alone (truncated).
//   - Bounds: the Hub keeps the last 1024 Records (at most 16 MiB of
//     messages) for a late subscriber; a
//     file sink keeps at most 64 MiB and then counts what it dropped; a
//     subscriber is called synchronously and must not block.
//   - Exchanges taps a network server's HTTP client (Trace, a websocket
//     handshake) for a network view: each exchange's status, the
//     timings of its phases (DNS, connect, TLS, first byte; httptrace),
//     MCP-Protocol-Version and the Mcp-Session-Id shortened to 8
//     characters; every other request header by name only, never a value.
//     The Hub keeps the last 512 in memory; none goes to a file.
//   - Close writes a file sink atomically (package atomicfile) as NDJSON,
//     one Record per line.
//
// Where it sits: under host, because recording is a concern of a
// connection — host attaches a recorder to every transport it builds
// (conn.go) and the recorder sees each HTTP exchange through the guarded
// client. The gates (gates/replay serves a recording, gates/lint reads
// definitions off it) and the faces read what it wrote.
//
// Imports: atomicfile, engine/sanitize, fault.
package wire
