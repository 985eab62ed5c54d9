package host

import (
	"slices"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/host/failure"
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

// status is the server's row in Servers.
func (c *conn) status() ServerStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := ServerStatus{
		Name:      c.srv.Name,
		Transport: c.srv.Transport,
		State:     c.state,
		ConnectMS: c.connectMS,
		Protocol:  c.protocol,
		Requested: c.requested(),
		Era:       era.EraOf(c.protocol),
		Tools:     c.admitted,
		Skipped:   c.skipped,
	}
	st.NotOffered = slices.Clone(c.notOffered)
	if st.State == "" {
		st.State = engine.StateConnecting
	}
	if c.info != nil {
		// serverInfo is the server's word, shown in mcp ls --json and the
		// TUI: one-line fields, cleaned as such.
		st.ServerName, st.ServerVersion = sanitize.Line(c.redactText(c.info.Name)), sanitize.Line(c.redactText(c.info.Version))
	}
	if c.srv.Stdio != nil {
		st.Digest = c.srv.Stdio.Digest
		st.Sandbox = c.h.sandboxStatus(c.srv.Stdio)
		if st.Sandbox != nil {
			st.Sandbox.Note = c.sandboxNoteText()
		}
	}
	if c.srv.Target != nil {
		st.URL = c.srv.shownURL()
	}
	st.Headers = HeaderNames(c.srv.Headers)
	if c.ch != nil {
		st.PID = c.ch.Pid
	}
	if first, n := c.stray.FirstLine(); n > 0 {
		st.StrayStdout = &StrayStdout{Lines: n, First: sanitize.Line(c.redactText(first))}
	}
	if c.fail != nil {
		st.ErrorCode, st.Error = c.fail.ErrCode, c.fail.Message()
		if c.fail.Cause != nil {
			st.Error += ": " + c.fail.Cause.Error()
		}
		st.ExitStatus, st.StderrTail = c.fail.ExitStatus, c.fail.StderrTail
		if r, ok := netguard.AsRefusal(c.fail.Cause); ok {
			d := r.ErrorData().(netguard.Data)
			st.Refusal = &d
		}
	}
	return st
}

// emit reports a state change as an mcp:server event. It never carries a
// secret: the stderr tail is redacted and errors never hold env values.
func (c *conn) emit(state string, e *failure.Error) {
	c.mu.Lock()
	c.state = state
	d := engine.ServerData{
		Server:    c.srv.Name,
		State:     state,
		Transport: c.srv.Transport,
		ConnectMS: c.connectMS,
		Protocol:  c.protocol,
		Tools:     c.admitted,
	}
	if c.ch != nil {
		d.PID = c.ch.Pid
	}
	if sb := c.h.sandboxStatus(c.srv.Stdio); sb != nil {
		d.Sandbox, d.SandboxPolicy = sb.Word(), sb.Policy.Marshal()
	}
	if c.srv.Stdio != nil {
		d.Digest = c.srv.Stdio.Digest
	}
	c.mu.Unlock()
	if e != nil {
		d.ErrorCode = e.ErrCode
		d.Error = e.Message()
		if e.Cause != nil {
			d.Error += ": " + e.Cause.Error()
		}
		d.StderrTail = e.StderrTail
	}
	c.h.em.Emit(engine.Event{Type: engine.EventServer, Data: d})
}
