// Package engine is relavium's platform-pure shared vocabulary: the tool
// registry, the ToolHost capability every tool call goes through, the
// traced call, and the event stream its consumers (TUI, NDJSON printer, MCP
// adapter) read. The workflow language that runs on it is package workflow.
//
// Contract:
//   - engine never imports the MCP SDK, os/exec, net, net/http, host, the
//     YAML reader or package workflow (deps_test.go enforces it with
//     `go list -deps`). It defines the interfaces package host implements;
//     it owns no process and no socket.
//     Of relavium's own packages it imports nesting, consent/canonjson and
//     fields (ToolDef.Fields: a tool's input fields, read at discovery).
//   - Registry: every call goes engine → ToolHost.Call, routed by ToolID;
//     the built-in mcp_call (server, tool, arguments) reaches the same
//     ToolHost.Call, so the host's validation and bounds apply.
//   - Bus: stamps Seq and Time, fans out to many subscribers, never blocks
//     in Emit; a slow subscriber gets progress coalesced (latest per call)
//     and old logs dropped past a backlog, never a result, gate, server
//     state or terminal event. Close drains, then ErrBusClosed.
//   - Trace: one tool:call and exactly one tool:result per call, with
//     arguments and results sanitized for display and secrets redacted.
//
// Imports: the standard library, github.com/google/jsonschema-go and
// engine/sanitize. Its error codes (E604, E605, E607, E609, E612: tool
// lookup, mcp_call arguments, a failed call, a cancelled context, missing
// run options) are in errors.go; the workflow language's are package
// workflow's.
package engine
