package clientside

import (
	"context"
	"encoding/json"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fields"
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

// SchemaDefaults returns the "default" of every top-level field of a flat
// object schema (the shape MCP elicitation allows), read as every surface
// reads fields (fields.Of). ok is false when a required property has no
// default (declared or not) or the schema does not parse.
func SchemaDefaults(schema json.RawMessage) (map[string]any, bool) {
	if len(schema) == 0 {
		return map[string]any{}, true
	}
	fs, err := fields.Of(schema)
	if err != nil {
		return nil, false
	}
	content, ok := fields.Defaults(fs)
	var s struct {
		Required []string `json:"required"`
	}
	if !ok || json.Unmarshal(schema, &s) != nil {
		return nil, false
	}
	for _, r := range s.Required { // a required name the schema does not declare has no default either
		if _, ok := content[r]; !ok {
			return nil, false
		}
	}
	return content, true
}

// ReplySampler answers every request with one text (--sampling-reply):
// for scripts and CI, where a fixed answer is the point.
type ReplySampler struct{ Text string }

// Sample accepts with the text as the assistant's message.
func (r ReplySampler) Sample(context.Context, engine.SampleRequest) (engine.SampleResponse, error) {
	return engine.SampleResponse{Action: engine.SampleAccept, Role: "assistant", Text: r.Text, Model: "relavium-reply", StopReason: "endTurn"}, nil
}
