package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/relavium/relavium/fields"
)

// ToolID is the host's internal, opaque identity of an admitted tool. Calls
// are routed by it, never by re-parsing a namespaced name.
type ToolID string

// Annotations are a server's advisory hints about a tool. A nil pointer means
// the server did not say. They are untrusted: a server may lie.
type Annotations struct {
	ReadOnly    *bool `json:"read_only,omitempty"`
	Destructive *bool `json:"destructive,omitempty"`
	Idempotent  *bool `json:"idempotent,omitempty"`
	OpenWorld   *bool `json:"open_world,omitempty"`
}

// IsReadOnly reports whether the server annotated the tool read-only.
func (a Annotations) IsReadOnly() bool { return a.ReadOnly != nil && *a.ReadOnly }

// IsDestructive reports whether the server annotated the tool destructive.
// Per the MCP spec, destructiveHint defaults to true for a non-read-only tool.
func (a Annotations) IsDestructive() bool {
	if a.IsReadOnly() {
		return false
	}
	return a.Destructive == nil || *a.Destructive
}

// ToolDef is one admitted tool as the registry, the TUI and any model see it:
// bounded, sanitized and namespaced at discovery.
type ToolDef struct {
	ID           ToolID          `json:"-"`
	Name         string          `json:"name"`   // namespaced: mcp_{server}_{tool}
	Server       string          `json:"server"` // registration or inline id
	Tool         string          `json:"tool"`   // the server's own name
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"` // sanitized; external-server text
	InputSchema  json.RawMessage `json:"input_schema,omitempty"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	// Fields are InputSchema's top-level fields, read once when discovery
	// admitted the tool (fields.Of): what every surface that asks a person
	// for arguments reads. InputFields reads them for a ToolDef built
	// elsewhere.
	Fields      []fields.Field `json:"-"`
	Annotations Annotations    `json:"annotations"`
	// Digest is the pin digest of the tool's canonical sanitized definition
	// ("sha256:…"): what a remembered call approval is keyed by.
	Digest string `json:"digest,omitempty"`
	// Changed is set while the tool's definition differs from the one the
	// person accepted (pinned on first sight, or accepted since): a possible
	// "rug pull", flagged until accepted.
	Changed bool `json:"changed,omitempty"`
}

// InputFields are the tool's top-level input fields: those discovery read
// at admission, or InputSchema's read now for a ToolDef built elsewhere (a
// workflow's tool, a test's); the error says why a schema cannot be read.
func (d ToolDef) InputFields() ([]fields.Field, error) {
	if d.Fields != nil {
		return d.Fields, nil
	}
	return fields.Of(d.InputSchema)
}

// SkippedTool is a tool the host refused at discovery, with a stable reason
// code and a human detail.
type SkippedTool struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

// ContentKind is the kind of one part of a tool result: MCP's content type
// names, declared once here for every package that reads or builds parts.
type ContentKind string

// The content kinds an MCP tool result may hold.
const (
	ContentText         ContentKind = "text"
	ContentImage        ContentKind = "image"
	ContentAudio        ContentKind = "audio"
	ContentResource     ContentKind = "resource" // an embedded resource: text or a blob
	ContentResourceLink ContentKind = "resource_link"
)

// Content is one part of a tool result, kept engine-neutral.
type Content struct {
	Type     ContentKind `json:"type"`
	Text     string      `json:"text,omitempty"`
	MIMEType string      `json:"mime_type,omitempty"`
	Data     []byte      `json:"data,omitempty"` // image/audio/blob bytes
	URI      string      `json:"uri,omitempty"`
	Name     string      `json:"name,omitempty"`
}

// ToolResult is a completed call. IsError marks a tool error (the call
// reached the tool and the tool failed), not a transport failure.
type ToolResult struct {
	Content    []Content       `json:"content"`
	Structured json.RawMessage `json:"structured,omitempty"`
	IsError    bool            `json:"is_error"`
	// Meta is the result's _meta as the server sent it (bounded by the
	// host: MaxResultMeta), for the MCP-shaped --json of mcp call.
	Meta json.RawMessage `json:"meta,omitempty"`
}

// Text joins the text parts of a result.
func (r *ToolResult) Text() string {
	var n int
	for _, c := range r.Content {
		if c.Type == ContentText {
			n += len(c.Text)
		}
	}
	b := make([]byte, 0, n)
	for _, c := range r.Content {
		if c.Type == ContentText {
			b = append(b, c.Text...)
		}
	}
	return string(b)
}

// Progress is one progress notification routed to the calling stream.
type Progress struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// LogEntry is one server log notification.
type LogEntry struct {
	Server string          `json:"server"`
	Level  string          `json:"level"`
	Logger string          `json:"logger,omitempty"`
	Data   json.RawMessage `json:"data,omitempty"`
}

// ElicitRequest is a server's request for structured input from the person.
type ElicitRequest struct {
	Server  string          `json:"server"`
	Message string          `json:"message"`
	Schema  json.RawMessage `json:"schema,omitempty"`
	// URL is set for a url-mode elicitation (the person is sent to a page
	// instead of filling a form); Schema is then empty.
	URL *ElicitURL `json:"url,omitempty"`
}

// ElicitResponse answers an ElicitRequest: accept (with content), decline or cancel.
type ElicitResponse struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// Elicitor answers elicitation requests (TUI dialog, headless policy, MCP
// client passthrough). It must honour ctx.
type Elicitor interface {
	Elicit(ctx context.Context, req ElicitRequest) (ElicitResponse, error)
}

// CallOptions are the trusted per-call options a caller passes through
// ToolHost.Call. None of them ever enters tool arguments or an event.
type CallOptions struct {
	// Timeout overrides the 60 s tools/call deadline when > 0.
	Timeout time.Duration
	// OnProgress receives progress for this call only. It must not block.
	OnProgress func(Progress)
	// OnLog receives the server's log notifications that can only be this
	// call's (host decides; the rest are the server's). It must not block.
	OnLog func(LogEntry)
}

// ToolHost is the capability the engine routes every tool call through.
// Package host implements it over live MCP sessions.
type ToolHost interface {
	// Tools lists every admitted tool, in a stable order.
	Tools() []ToolDef
	// Skipped lists every tool refused at discovery, with its reason.
	Skipped() []SkippedTool
	// Tool is the admitted tool of that namespaced name: the one lookup
	// from a name to a tool (the registry and every face use it).
	Tool(name string) (ToolDef, bool)
	// Call validates args against the tool's schema and calls it. A tool
	// error is a result with IsError set, not a Go error.
	Call(ctx context.Context, id ToolID, args json.RawMessage, opts CallOptions) (*ToolResult, error)
}

// Redactor is implemented by a ToolHost that injected secret values into
// its servers (a stdio server's {{secrets.NAME}} env). Redact replaces every
// such value of server's in s with its {{secrets.NAME}} reference. Trace
// passes every string of an event's display copy through it, so a server
// that echoes its credential cannot put it into an event.
type Redactor interface {
	Redact(server, s string) string
}
