package workflow

import (
	"encoding/json"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/relavium/relavium/authored"
)

// Workflow triggers.
const (
	TriggerManual  = "manual"   // run from the terminal or the TUI
	TriggerMCPCall = "mcp_call" // also published by `mcp serve` as relavium_{id}
)

// Side effects a workflow declares: what the machine gate sees.
const (
	SideEffectRead        = "read"
	SideEffectWrite       = "write"
	SideEffectRemote      = "remote"
	SideEffectDestructive = "destructive"
)

// Step kinds.
const (
	StepTool = "tool"
	StepGate = "gate"
)

// Input types (JSON Schema type names).
var inputTypes = [...]string{"string", "integer", "number", "boolean", "array", "object"}

// Workflow is a validated .relavium/workflows/<id>.yaml. It is immutable
// after LoadWorkflow(s) returns it and safe to share between runs.
type Workflow struct {
	ID          string      `json:"id"`
	Description string      `json:"description,omitempty"`
	Trigger     string      `json:"trigger"`     // TriggerManual | TriggerMCPCall
	SideEffect  string      `json:"side_effect"` // read | write | remote | destructive
	Servers     []ServerRef `json:"mcp_servers,omitempty"`
	Inputs      []Input     `json:"inputs"`
	Steps       []Step      `json:"steps"`
	Outputs     []Output    `json:"outputs,omitempty"`
	File        string      `json:"file"` // absolute path of the file it was loaded from

	inputSchema json.RawMessage
	props       map[string]*jsonschema.Resolved // per-input validators
	root        *jsonschema.Resolved            // the published schema, resolved
}

// ServerRef names a registration from config.toml ([[mcp_servers]] name)
// that a workflow uses, optionally narrowing its tools. Inline server
// entries are refused in workflows.
type ServerRef struct {
	Ref            string       `json:"ref"`
	ToolsAllowlist []string     `json:"tools_allowlist,omitempty"`
	Pos            authored.Pos `json:"source"`
}

// Input is one declared input.
type Input struct {
	Name        string       `json:"name"`
	Type        string       `json:"type"` // string | integer | number | boolean | array | object
	Required    bool         `json:"required,omitempty"`
	Description string       `json:"description,omitempty"`
	Default     any          `json:"default,omitempty"`
	HasDefault  bool         `json:"-"`
	Enum        []any        `json:"enum,omitempty"`
	Pos         authored.Pos `json:"source"`
}

// Step is one step: a tool call or a gate.
type Step struct {
	ID string `json:"id"`
	// Tool is the namespaced tool (mcp_{server}_{tool}) or the built-in
	// mcp_call; empty for a gate.
	Tool string `json:"tool,omitempty"`
	// Args is the argument tree: maps, lists and scalars whose templated
	// strings are *Template (which marshal as their authored text).
	Args map[string]any `json:"args,omitempty"`
	// Gate is the authored gate message; empty for a tool step.
	Gate string `json:"gate,omitempty"`
	// ContinueOnError lets a run go on past a tool result with isError
	// set; later steps can read {{steps.ID.is_error}}. A failed call
	// (transport, deadline, bounds) always fails the run.
	ContinueOnError bool `json:"continue_on_error,omitempty"`
	// Timeout overrides the tools/call deadline when > 0 (timeout_ms).
	Timeout time.Duration `json:"-"`
	Pos     authored.Pos  `json:"source"`

	gate *Template
}

// GatePreview is the gate's message as far as inputs fill it in before the
// run (Template.Preview); a lookup of an earlier step stays as written.
func (s *Step) GatePreview(inputs map[string]any) string {
	if s.gate == nil {
		return s.Gate
	}
	return s.gate.Preview(inputs)
}

// Kind is StepTool or StepGate.
func (s *Step) Kind() string {
	if s.Tool == "" {
		return StepGate
	}
	return StepTool
}

// Output is one named output: a template tree evaluated after the last step.
type Output struct {
	Name  string       `json:"name"`
	Value any          `json:"value"`
	Pos   authored.Pos `json:"source"`
}

// InputSchema is the JSON Schema (2020-12) of the workflow's inputs: the
// inputSchema the MCP adapter publishes for relavium_{id}. Properties keep
// the authored order; additional properties are refused.
func (w *Workflow) InputSchema() json.RawMessage {
	return append(json.RawMessage(nil), w.inputSchema...)
}

// Gates returns the gate steps, in order.
func (w *Workflow) Gates() []*Step {
	var out []*Step
	for i := range w.Steps {
		if w.Steps[i].Kind() == StepGate {
			out = append(out, &w.Steps[i])
		}
	}
	return out
}

// Input returns the named input, or nil.
func (w *Workflow) Input(name string) *Input {
	for i := range w.Inputs {
		if w.Inputs[i].Name == name {
			return &w.Inputs[i]
		}
	}
	return nil
}

// RequiresConfirmation reports whether a machine client must confirm a run:
// the side effect is remote or destructive, or a step is a gate.
func (w *Workflow) RequiresConfirmation() bool {
	return w.SideEffect == SideEffectRemote || w.SideEffect == SideEffectDestructive || len(w.Gates()) > 0
}
