// Package route delivers what a server sends during a request to whoever
// waits for it, in order and without blocking the reader of a connection:
// the ordered delivery queue (Queue), a call's progress routed by its token
// to that call only when its own server sent it (Progress), a server's logs
// routed to the one call they can only belong to (Logs), and the MCP log
// levels.
//
// Contract:
//   - Queue.Push never blocks; a consumer that is behind holds at most Max
//     values, and a full queue gives up the oldest value or (KeepNewest)
//     the last queued one, replaced by the newest. A goroutine delivers
//     only while there is something to deliver; Drain waits for it.
//   - Progress.Deliver drops a token of no registered stream, and a token
//     whose stream belongs to another owner (tokens are predictable: a
//     server cannot forge another server's call's progress). Once Remove
//     returns, no push reaches the stream.
//   - Logs.Route hands a log to a call only while exactly one request is
//     in flight on the server and it is a call that takes logs; otherwise
//     the log is the server's (the caller emits it as such).
//
// route may import engine only (and the standard library): it knows nothing
// of MCP, of connections or of package host, whose root composes it.
package route
