// Package inbound is the door of relavium's own MCP servers (`mcp serve`
// and `replay`), the one place each of these rules lives:
//
//   - StdioFilter stands between a client's stdin and the SDK's stdio
//     transport: only lines that are one JSON-RPC message (or batch) pass;
//     a line that is not JSON (E428), over MaxStdioLineBytes (E429, never
//     held) or nested past nesting.MessageDepth (E430, refused as it
//     arrives) is answered with a coded JSON-RPC error (id null) and the
//     next line is read. LockedWriter keeps those answers and the server's
//     own whole.
//   - Guard fronts an HTTP handler: the bearer token first (401 with
//     WWW-Authenticate before a body byte is read, E426), then Host and
//     Origin against DNS rebinding (loopback names and the allowed hosts,
//     403, E433), then the body bounded at MaxBodyBytes (413, E434).
//   - Token is the bearer token: RELAVIUM_MCP_TOKEN, else <home>/mcp-token
//     (a regular 0600 file, never a symlink), else one generated there with
//     O_EXCL; only its hash is kept, its value never printed. CheckBind
//     refuses a non-loopback bind without --allowed-host and a configured
//     token.
//
// Allowed imports: engine/sanitize, fault, nesting, regularfile (and the
// go-sdk's jsonrpc): never invoke, machine or a face, which stand on it.
package inbound
