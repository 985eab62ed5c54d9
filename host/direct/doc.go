// Package direct is the requests relavium writes itself on a connection it
// reads itself, beside the SDK, with ids of its own, their answers taken off
// the stream before the SDK decodes anything.
//
// Contract:
//   - Raw is the raw request path of one connection (stdio, sse, websocket,
//     in process): requests go-sdk has no API for (tasks), with ids
//     "relavium-raw-N" that are never the SDK's; Take takes their answers
//     (and keeps the initialize answer's capabilities.tasks, TasksCap);
//     Call waits for one, bounded to 4 MiB, and cancels it at the server
//     when given up. A connection the SDK reads alone (Streamable HTTP)
//     has no raw path (Ready is false).
//   - The load path (mcp bench) on a stdio connection: LoadLines sits on
//     stdout and passes every byte through except whole lines answering an
//     open LoadPipe's requests ("relavium-load-K-I"), each reported once,
//     classified (a JSON-RPC error code, a tool's isError, an invalid
//     answer) in the reading goroutine, with no goroutine, channel or timer
//     per request; SharedStdin lets the SDK and the pipes write whole lines.
//     Load traffic bypasses the wire recorder.
//
// direct may import fault and host/failure, the go-sdk's jsonrpc and mcp,
// and segmentio's JSON decoder; never host's root or anything above
// (deps_test.go).
package direct
