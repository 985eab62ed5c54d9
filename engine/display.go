package engine

import (
	"bytes"
	"encoding/json"

	"github.com/relavium/relavium/engine/sanitize"
)

// textMapper rewrites one display string (a Redactor bound to a server);
// nil leaves strings as they are.
type textMapper func(string) string

func (m textMapper) apply(s string) string {
	if m == nil {
		return s
	}
	return m(s)
}

// DisplayJSON returns v with every string (keys and values) sanitized for
// display, so JSON shown in an event cannot carry terminal control
// sequences. The host uses it for a server's log data, which is shown, never
// used, so its event carries the cleaned copy as a result does.
func DisplayJSON(v json.RawMessage) json.RawMessage { return displayJSONWith(v, nil) }

// displayJSONWith is DisplayJSON with every value string also passed through
// m (secret redaction). A tool input shown in an event goes through it; what
// is sent to the tool never changes.
func displayJSONWith(args json.RawMessage, m textMapper) json.RawMessage {
	if len(args) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		b, _ := json.Marshal(m.apply(sanitize.Text(string(args))))
		return b
	}
	b, err := json.Marshal(displayValueWith(v, m))
	if err != nil {
		return nil
	}
	return b
}

// DisplayValue sanitizes every string of a JSON-ready tree (a copy).
func DisplayValue(v any) any { return displayValueWith(v, nil) }

func displayValueWith(v any, m textMapper) any {
	switch x := v.(type) {
	case string:
		return m.apply(sanitize.Text(x))
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[sanitize.Line(k)] = displayValueWith(e, m)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = displayValueWith(e, m)
		}
		return out
	}
	return v
}

// displayResult is a copy of res for events: text parts, names, URIs and
// every string of the structured content sanitized for display. Binary
// data is kept as it is (it is never rendered as text). The run itself
// reads the original.
func displayResult(res *ToolResult, m textMapper) *ToolResult {
	if res == nil {
		return nil
	}
	out := &ToolResult{IsError: res.IsError, Content: make([]Content, len(res.Content))}
	for i, c := range res.Content {
		c.Text = m.apply(sanitize.Text(c.Text))
		c.Name = m.apply(sanitize.Line(c.Name))
		c.URI = m.apply(sanitize.Line(c.URI))
		c.MIMEType = sanitize.Line(c.MIMEType)
		out.Content[i] = c
	}
	out.Structured = displayJSONWith(res.Structured, m)
	return out
}
