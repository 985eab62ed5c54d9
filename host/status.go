package host

import (
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/sandbox"
)

// ServerStatus is one server as `mcp ls` and the TUI report it.
type ServerStatus struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	State     string `json:"state"` // engine.State*
	PID       int    `json:"pid,omitempty"`
	ConnectMS int64  `json:"connect_ms,omitempty"`
	Protocol  string `json:"protocol,omitempty"` // the negotiated version
	// Requested is the protocol the declaration asks for: 2025-11-25,
	// 2026-07-28 or auto; Era is what the negotiated one means.
	Requested     string   `json:"protocol_requested,omitempty"`
	Era           *era.Era `json:"era,omitempty"`
	ServerName    string   `json:"server_name,omitempty"` // serverInfo.name (untrusted)
	ServerVersion string   `json:"server_version,omitempty"`
	Tools         int      `json:"tools"`
	Skipped       int      `json:"skipped"`
	// NotOffered are the list methods the server answered "method not
	// found" (-32601) though it declares their capability (the TypeScript
	// SDK's low-level Server does so for any handler not registered): each
	// is taken as an empty list, not a failure. Sorted; filled as the
	// lists are read (tools/list on connect, the others when browsed).
	NotOffered []string `json:"lists_not_offered,omitempty"`
	Digest     string   `json:"digest,omitempty"`
	// Sandbox is a stdio server's effective sandbox policy, whether it is
	// applied here ("not sandboxed: …" when not) and the first denial it
	// explained (docs/sandbox.md).
	Sandbox *sandbox.Status `json:"sandbox,omitempty"`
	URL     string          `json:"url,omitempty"` // redacted: no query or fragment
	// Headers are the static header names, each value [REDACTED].
	Headers    map[string]string `json:"headers,omitempty"`
	ErrorCode  fault.Code        `json:"error_code,omitempty"`
	Error      string            `json:"error,omitempty"`
	ExitStatus string            `json:"exit_status,omitempty"`
	StderrTail string            `json:"stderr_tail,omitempty"`
	// StrayStdout counts the non-JSON lines a stdio server wrote on stdout
	// (a console.log banner): tolerated, kept with its stderr, and shown.
	StrayStdout *StrayStdout `json:"stray_stdout,omitempty"`
	// Refusal is the network guard's refusal of this server (reason, url,
	// the address that was refused, remedy), when the guard refused it.
	Refusal *netguard.Data `json:"refusal,omitempty"`
}

// StrayStdout is what a stdio server wrote on stdout that was not
// JSON-RPC: how many lines, and the first (cut to 200 bytes, one line,
// redacted; the server's text).
type StrayStdout struct {
	Lines int    `json:"lines"`
	First string `json:"first"`
}
