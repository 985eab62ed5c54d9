// Package host is relavium's MCP client host on go-sdk v1.8.0: it connects
// every declared server concurrently under the spec's deadlines (stdio only
// after consent approves it), discovers tools under the spec's bounds,
// routes calls by internal id, streams progress and logs as engine events,
// and tears every session and child process group down on Close.
//
// host implements engine.ToolHost. It may import consent and engine; never
// tui or invoke. Sub-packages: config (authored files), netguard (the one
// SSRF-guarded dialer every network connection must use).
package host
