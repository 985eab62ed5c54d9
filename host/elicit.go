package host

import (
	"context"
	"encoding/json"

	"github.com/relavium/relavium/engine"
)

// DeclineElicitor is the headless default: every elicitation is declined.
type DeclineElicitor struct{}

// Elicit declines.
func (DeclineElicitor) Elicit(context.Context, engine.ElicitRequest) (engine.ElicitResponse, error) {
	return engine.ElicitResponse{Action: "decline"}, nil
}

// DefaultsElicitor accepts every form elicitation with the defaults its
// schema declares (`--elicit=defaults`): each property with a "default" is
// answered with it, and a property without one is left out. When a required
// property has no default, the request is declined: there is no honest
// answer to give.
type DefaultsElicitor struct{}

// Elicit accepts with the schema's defaults.
func (DefaultsElicitor) Elicit(_ context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
	content, ok := SchemaDefaults(req.Schema)
	if !ok {
		return engine.ElicitResponse{Action: "decline"}, nil
	}
	return engine.ElicitResponse{Action: "accept", Content: content}, nil
}

// SchemaDefaults returns the "default" of every top-level property of a
// flat object schema (the shape MCP elicitation allows). ok is false when a
// required property has no default or the schema does not parse.
func SchemaDefaults(schema json.RawMessage) (map[string]any, bool) {
	content := map[string]any{}
	if len(schema) == 0 {
		return content, true
	}
	var s struct {
		Properties map[string]map[string]json.RawMessage `json:"properties"`
		Required   []string                              `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, false
	}
	for name, prop := range s.Properties {
		raw, ok := prop["default"]
		if !ok {
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, false
		}
		content[name] = v
	}
	for _, r := range s.Required {
		if _, ok := content[r]; !ok {
			return nil, false
		}
	}
	return content, true
}
