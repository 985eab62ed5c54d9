// Package engine is relavium's platform-pure core: the tool registry, the
// ToolHost capability every tool call goes through, the event stream its
// consumers (TUI, NDJSON printer, MCP adapter) read, and deterministic
// workflow runs.
//
// Contract:
//   - engine never imports the MCP SDK, os/exec, net, net/http or host
//     (deps_test.go enforces it with `go list -deps`). It defines the
//     interfaces package host implements; it owns no process and no socket.
//   - Registry: every call goes engine → ToolHost.Call, routed by ToolID;
//     the built-in mcp_call (server, tool, arguments) reaches the same
//     ToolHost.Call, so the host's validation and bounds apply.
//   - Bus: stamps Seq and Time, fans out to many subscribers, never blocks
//     in Emit; a slow subscriber gets progress coalesced (latest per call)
//     and old logs dropped past a backlog, never a result, gate, server
//     state or terminal event. Close drains, then ErrBusClosed.
//   - Workflows (.relavium/workflows/<id>.yaml): LoadWorkflow(s) validate
//     every authored rule and report every problem at once with
//     file:line:column and field (E600, exit 2). Templates are {{…}}
//     lookups only (inputs, earlier steps); {{secrets.*}} is refused.
//   - Run: inputs validated against InputSchema (E603), then exactly one
//     terminal event per started run: run:completed, run:failed, or
//     run:cancelled (ctx cancelled E609, gate refused E610).
//   - Plan: the plan form and its plan_id (SHA-256 of the canonical plan
//     JSON); Check refuses a moved plan with E450.
//
// Error codes E600–E613 and E450 are listed in errors.go.
package engine
