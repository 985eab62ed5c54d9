package callcmd

import (
	"encoding/json"

	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/session"
)

// Call is what the command makes again.
type Call struct {
	Agent string          // the session's agent ("" none)
	Name  string          // the tool's qualified name (server.tool)
	Tool  string          // the tool's own name, for a server reached ad hoc
	Args  json.RawMessage // the call's arguments
	// Adhoc: the server is reached ad hoc, by Transport and Target (and
	// AllowLocal for a url on a local address).
	Adhoc      bool
	Transport  string
	Target     string
	AllowLocal bool
}

// Words is `relavium [--agent A] mcp call TOOL --args 'JSON'` (a server
// reached ad hoc: `relavium mcp call TOOL --args 'JSON' --stdio 'COMMAND'`
// or `--url URL`), unquoted, with what needs asks for.
func Words(c Call, needs session.HeadlessNeeds) []string {
	words := []string{"relavium"}
	if c.Agent != "" && !c.Adhoc {
		words = append(words, "--agent", c.Agent)
	}
	name := c.Name
	if c.Adhoc { // reached ad hoc, its tools by their own names
		name = c.Tool
	}
	words = append(words, "mcp", "call", name)
	if len(c.Args) > 0 && string(c.Args) != "{}" {
		words = append(words, "--args", string(c.Args))
	}
	if needs.Yes {
		words = append(words, "--yes")
	}
	switch {
	case !c.Adhoc:
		if needs.AllowStdio != "" {
			words = append(words, "--allow-mcp-stdio", needs.AllowStdio)
		}
		for _, a := range needs.AllowSecret {
			words = append(words, "--allow-secret", a)
		}
		for _, a := range needs.AllowLocal {
			words = append(words, "--allow-local", a)
		}
	case c.Transport == host.TransportStdio:
		words = append(words, "--stdio", c.Target)
	default:
		words = append(words, "--url", c.Target)
		if c.AllowLocal {
			words = append(words, "--allow-local-endpoint")
		}
	}
	return words
}
