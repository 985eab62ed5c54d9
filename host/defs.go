package host

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/browse"
	"github.com/relavium/relavium/sandbox"
)

// Definitions is what one connected server offers as discovery judged it:
// the gates (`relavium mcp lock`, `mcp check`) read it. Tool definitions
// are discovery's canonical sanitized ones, the same bytes the tool pins
// hash; nothing here holds a secret (a stdio server is named by its
// consent digest, a network one by its redacted url).
type Definitions struct {
	Server    string `json:"server"`
	Transport string `json:"transport"`
	Digest    string `json:"digest,omitempty"`
	URL       string `json:"url,omitempty"`
	Protocol  string `json:"protocol"`
	// Sandbox is a stdio server's effective sandbox policy (nil: none).
	Sandbox *sandbox.Policy `json:"sandbox,omitempty"`
	// Capabilities is the server's initialize capabilities as JSON ("{}"
	// when it declared none).
	Capabilities json.RawMessage `json:"capabilities"`
	// Tools are the admitted tools in declaration order.
	Tools []DefinedTool `json:"tools"`
	// Skipped are the tools discovery refused, with their reason codes.
	Skipped []engine.SkippedTool `json:"skipped"`
	// NotOffered are the declared lists the server answered -32601 so far
	// (notoffered.go): read the prompts and resources first to have them
	// all.
	NotOffered []string `json:"lists_not_offered,omitempty"`
}

// DefinedTool is one admitted tool: its server-side name and canonical
// definition.
type DefinedTool struct {
	Name      string          `json:"name"`
	Canonical json.RawMessage `json:"definition"`
}

// Definitions returns what server offers; false when it is not connected.
func (h *Host) Definitions(server string) (*Definitions, bool) {
	for _, c := range h.connList() {
		if c.srv.Name != server {
			continue
		}
		st := c.status()
		c.mu.Lock()
		cat, cs := c.cat, c.cs
		c.mu.Unlock()
		if cat == nil || cs == nil {
			return nil, false
		}
		d := &Definitions{Server: st.Name, Transport: st.Transport, Digest: st.Digest, URL: st.URL, Protocol: st.Protocol, Sandbox: policyOf(st.Sandbox),
			Capabilities: json.RawMessage("{}"), Tools: []DefinedTool{}, Skipped: append([]engine.SkippedTool{}, cat.Skipped...)}
		d.Capabilities = c.declared(cs)
		d.NotOffered = st.NotOffered
		for _, t := range cat.Tools {
			d.Tools = append(d.Tools, DefinedTool{Name: t.Def.Tool, Canonical: json.RawMessage(t.Canonical())})
		}
		return d, true
	}
	return nil, false
}

// InProcess is an endpoint served in this process over t (one end of
// mcp.NewInMemoryTransports): `mcp check --against` connects the servers
// of a recording this way. It has no program and no url, and pins nothing.
func InProcess(name string, t mcp.Transport) Endpoint {
	return Endpoint{Name: name, Transport: "in-process", memory: t}
}

// declared is the server's initialize capabilities as JSON: what go-sdk
// decodes, plus what it does not model and the connection read raw
// (capabilities.tasks), so a lock keeps every capability declared.
func (c *conn) declared(cs *mcp.ClientSession) json.RawMessage {
	b, err := json.Marshal(browse.Capabilities(cs))
	if err != nil {
		return json.RawMessage("{}")
	}
	tasks := c.raw.TasksCap()
	if len(tasks) == 0 {
		return b
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		m = map[string]json.RawMessage{}
	}
	m["tasks"] = tasks
	if out, err := json.Marshal(m); err == nil {
		return out
	}
	return b
}
