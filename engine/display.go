package engine

import (
	"bytes"
	"encoding/json"

	"github.com/relavium/relavium/engine/sanitize"
)

// displayJSON returns args with every string (keys and values) sanitized
// for display, so a tool input shown in an event cannot carry terminal
// control sequences. It never changes what is sent to the tool.
func displayJSON(args json.RawMessage) json.RawMessage {
	if len(args) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		b, _ := json.Marshal(sanitize.Text(string(args)))
		return b
	}
	b, err := json.Marshal(displayValue(v))
	if err != nil {
		return nil
	}
	return b
}

// displayValue sanitizes every string of a JSON-ready tree (a copy).
func displayValue(v any) any {
	switch x := v.(type) {
	case string:
		return sanitize.Text(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[sanitize.Line(k)] = displayValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = displayValue(e)
		}
		return out
	}
	return v
}

// displayResult is a copy of res for events: text parts, names, URIs and
// every string of the structured content sanitized for display. Binary
// data is kept as it is (it is never rendered as text). The run itself
// reads the original.
func displayResult(res *ToolResult) *ToolResult {
	if res == nil {
		return nil
	}
	out := &ToolResult{IsError: res.IsError, Content: make([]Content, len(res.Content))}
	for i, c := range res.Content {
		c.Text = sanitize.Text(c.Text)
		c.Name = sanitize.Line(c.Name)
		c.URI = sanitize.Line(c.URI)
		c.MIMEType = sanitize.Line(c.MIMEType)
		out.Content[i] = c
	}
	out.Structured = displayJSON(res.Structured)
	return out
}
