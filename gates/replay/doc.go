// Package replay serves a wire recording (package wire's NDJSON) as an MCP
// server: `relavium replay FILE`, and the baseline `relavium mcp check
// --against FILE` compares live servers with.
//
// Contract:
//
//   - Read loads a recording, bounded (64 MiB, the recorder's own bound;
//     each line at most the recorder's 4 MiB message plus its record).
//   - A Script is one server's recorded answers: every request the client
//     sent, keyed by method and canonical params (consent/canonjson; the
//     params' _meta, which carries per-call progress tokens, is left out),
//     with the result or error the server gave. initialize is answered by
//     method alone (client names and versions differ). A request recorded
//     several times is answered in the recorded order, the last answer
//     repeating.
//   - Serve answers requests on one connection (stdio, in-process) and
//     Handler on Streamable HTTP (JSON responses, one session id); a
//     request with no recorded answer gets a JSON-RPC error naming E951,
//     the method and what to do. Requests a client chooses and a server
//     answers without state are answered with {} when the recording holds
//     no twin: ping and logging/setLevel at any level (so any client, the
//     Inspectors included, connects); initialize from any client name,
//     version or protocol gets the recorded answer; notifications are
//     taken and not answered.
//     Server-initiated requests and notifications in the recording are not
//     replayed.
//
// Imports: consent/canonjson, fault, host/wire, regularfile.
package replay
