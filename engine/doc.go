// Package engine is relavium's platform-pure core: the tool registry, the
// ToolHost capability every tool call goes through, the event stream its
// consumers (TUI, NDJSON printer, MCP adapter) read, and deterministic
// workflow runs.
//
// Contract: engine never imports the MCP SDK, os/exec, net or net/http
// (a test enforces it with `go list -deps`). It defines the interfaces that
// package host implements; it owns no process and no socket.
package engine
