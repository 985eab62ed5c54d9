package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/relavium/relavium/fault"
)

// BuiltinMCPCall is the engine's built-in tool: the lower-level path to a
// registered server's tool by (server, tool) name. It goes through the same
// ToolHost.Call as a namespaced tool, so the host's schema validation and
// bounds apply unchanged.
const BuiltinMCPCall = "mcp_call"

const mcpCallSchema = `{"type":"object","properties":{` +
	`"server":{"type":"string","minLength":1,"description":"the server's registration name"},` +
	`"tool":{"type":"string","minLength":1,"description":"the server's own tool name (not the mcp_{server}_{tool} name)"},` +
	`"arguments":{"type":"object","description":"the tool's arguments, validated against its input schema"}},` +
	`"required":["server","tool"],"additionalProperties":false}`

// Registry is the tool table a run or a session sees: every tool the
// ToolHost admitted, by namespaced name, plus mcp_call. It holds no copy of
// the host's catalogue: every lookup asks ToolHost.Tool, so tools the host
// re-discovers are seen at once. Every call goes engine → ToolHost → host.
type Registry struct {
	host    ToolHost
	mcpCall *jsonschema.Resolved
}

// NewRegistry returns the registry over host.
func NewRegistry(host ToolHost) (*Registry, error) {
	if host == nil {
		return nil, &Error{Base: fault.Base{ErrCode: CodeRunOptions, Msg: "a registry needs a ToolHost"}}
	}
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(mcpCallSchema), &s); err != nil {
		return nil, &Error{Base: fault.Base{ErrCode: CodeRunOptions, Msg: "mcp_call schema", Cause: err}}
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, &Error{Base: fault.Base{ErrCode: CodeRunOptions, Msg: "mcp_call schema", Cause: err}}
	}
	return &Registry{host: host, mcpCall: rs}, nil
}

// MCPCallDef is the ToolDef of the built-in mcp_call.
func MCPCallDef() ToolDef {
	f := false
	return ToolDef{
		ID:          ToolID(BuiltinMCPCall),
		Name:        BuiltinMCPCall,
		Server:      "relavium",
		Tool:        BuiltinMCPCall,
		Title:       "Call a server's tool by name",
		Description: "Call TOOL on the registered server SERVER with ARGUMENTS, through the same validation and bounds as the namespaced tool.",
		InputSchema: json.RawMessage(mcpCallSchema),
		Annotations: Annotations{ReadOnly: &f},
	}
}

// Tools lists the host's admitted tools followed by mcp_call.
func (r *Registry) Tools() []ToolDef {
	return append(r.host.Tools(), MCPCallDef())
}

// Lookup finds a tool by its namespaced name. An unknown name is E604, and
// says why when the host skipped a tool of that name at discovery.
func (r *Registry) Lookup(name string) (ToolDef, error) {
	if name == BuiltinMCPCall {
		return MCPCallDef(), nil
	}
	if t, ok := r.host.Tool(name); ok {
		return t, nil
	}
	for _, s := range r.host.Skipped() {
		if "mcp_"+s.Server+"_"+s.Tool == name {
			return ToolDef{}, &Error{Base: fault.Base{ErrCode: CodeToolUnknown, Msg: fmt.Sprintf("tool %s was skipped at discovery: %s %s", name, s.Code, s.Detail)}}
		}
	}
	return ToolDef{}, &Error{Base: fault.Base{ErrCode: CodeToolUnknown, Msg: fmt.Sprintf("no tool %s among the connected servers' admitted tools%s (see relavium mcp ls)", name, r.near(name))}}
}

// near suggests tools sharing the name's server prefix.
func (r *Registry) near(name string) string {
	var same []string
	for _, t := range r.host.Tools() {
		if strings.HasPrefix(name, "mcp_"+t.Server+"_") {
			same = append(same, t.Name)
		}
	}
	if len(same) == 0 || len(same) > 8 {
		return ""
	}
	return "; that server offers " + strings.Join(same, ", ")
}

// MCPCallTarget is a decoded mcp_call request.
type MCPCallTarget struct {
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// ResolveMCPCall validates mcp_call arguments against its schema (E605)
// and finds the target tool (E604).
func (r *Registry) ResolveMCPCall(args json.RawMessage) (ToolDef, json.RawMessage, error) {
	var inst any
	if err := json.Unmarshal(orEmpty(args), &inst); err != nil {
		return ToolDef{}, nil, &Error{Base: fault.Base{ErrCode: CodeMCPCallArgs, Msg: "mcp_call arguments are not JSON", Cause: err}}
	}
	if err := r.mcpCall.Validate(inst); err != nil {
		return ToolDef{}, nil, &Error{Base: fault.Base{ErrCode: CodeMCPCallArgs, Msg: "mcp_call takes {server, tool, arguments}", Cause: err}}
	}
	var c MCPCallTarget
	if err := json.Unmarshal(orEmpty(args), &c); err != nil {
		return ToolDef{}, nil, &Error{Base: fault.Base{ErrCode: CodeMCPCallArgs, Msg: "mcp_call arguments", Cause: err}}
	}
	inner := c.Arguments
	if len(inner) == 0 || bytes.Equal(inner, []byte("null")) {
		inner = json.RawMessage("{}")
	}
	for _, t := range r.host.Tools() {
		if t.Server == c.Server && t.Tool == c.Tool {
			return t, inner, nil
		}
	}
	for _, s := range r.host.Skipped() {
		if s.Server == c.Server && s.Tool == c.Tool {
			return ToolDef{}, nil, &Error{Base: fault.Base{ErrCode: CodeToolUnknown, Msg: fmt.Sprintf("mcp_call: tool %s on server %s was skipped at discovery: %s %s", c.Tool, c.Server, s.Code, s.Detail)}}
		}
	}
	return ToolDef{}, nil, &Error{Base: fault.Base{ErrCode: CodeToolUnknown, Msg: fmt.Sprintf("mcp_call: server %s has no admitted tool %s (see relavium mcp ls)", c.Server, c.Tool)}}
}

// Resolve returns the tool a call by name reaches and the arguments it
// receives: the named tool with args, or for mcp_call its target with the
// inner arguments.
func (r *Registry) Resolve(name string, args json.RawMessage) (ToolDef, json.RawMessage, error) {
	if name == BuiltinMCPCall {
		return r.ResolveMCPCall(args)
	}
	t, err := r.Lookup(name)
	if err != nil {
		return ToolDef{}, nil, err
	}
	return t, orEmpty(args), nil
}

// Call resolves name (a namespaced tool or mcp_call) and calls it through
// the host. It returns the tool actually called.
func (r *Registry) Call(ctx context.Context, name string, args json.RawMessage, opts CallOptions) (*ToolResult, ToolDef, error) {
	t, inner, err := r.Resolve(name, args)
	if err != nil {
		return nil, ToolDef{}, err
	}
	res, err := r.host.Call(ctx, t.ID, inner, opts)
	return res, t, err
}

func orEmpty(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("{}")
	}
	return b
}
