// Package loadtest measures an MCP server under load, the way load testers
// that can be trusted do it: requests are scheduled at a constant arrival
// rate and each latency is measured from the request's intended start, so a
// server that stalls cannot hide its stall by slowing the client down
// (coordinated omission). Latencies go into an HDR histogram, so the tail is
// reported faithfully and memory stays flat however long a run lasts.
//
// The package knows nothing of MCP connections: a run drives a Target (one
// request, numbered), which the command layer builds on a connected host.
// It owns the schedule (open loop, or a fixed number of closed-loop
// callers), the figures (Report: percentiles, achieved rate, errors by
// code, the client's own cost per request), the charts drawn in the terminal
// (a latency histogram and latency over time), a comparison with a saved
// baseline, and the thresholds a CI job fails on.
//
// loadtest imports the standard library, fault, engine/sanitize (every name
// it draws is a server's text), nesting, regularfile and atomicfile (the
// files it reads and writes), the HDR histogram and the Charm chart
// library; never host, invoke, session, tui or the MCP SDK (deps_test.go).
// Its error codes are E720–E729.
package loadtest
