package config

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/netguard"
)

// surface is where a server entry is written. Both surfaces share one
// validator, so the stdio-only / network-only rules are symmetric by
// construction.
type surface int

const (
	registration surface = iota // [[mcp_servers]] in config.toml, named by `name`
	inline                      // an agent's mcp_servers entry, named by `id`, or a `ref`
)

func (s surface) nameKey() string {
	if s == registration {
		return "name"
	}
	return "id"
}

func (s surface) keys() []string {
	if s == registration {
		return []string{"name", "transport", "command", "args", "env", "env_file", "cwd", "url", "allow_local_endpoint", "headers", "headers_helper", "tools_allowlist", "tools_denylist", "tools_auto_approve", "connect_timeout_ms", "call_timeout_ms", "autostart", "protocol", "lint_suppress", "oauth", "sandbox"}
	}
	return []string{"id", "ref", "transport", "command", "args", "env", "env_file", "cwd", "url", "allow_local_endpoint", "headers", "headers_helper", "connect_timeout_ms", "call_timeout_ms", "tools_allowlist", "tools_auto_approve", "protocol", "lint_suppress", "oauth", "sandbox"}
}

// keyHint explains the keys people carry over from the other surface.
func (s surface) keyHint(key string) string {
	switch {
	case s == registration && key == "id":
		return `a [[mcp_servers]] registration is named with "name" ("id" is the agent-file spelling)`
	case s == registration && key == "ref":
		return `"ref" belongs in an agent file's mcp_servers list, where it names a registration like this one`
	case s == inline && key == "name":
		return `an agent's inline server is named with "id" ("name" is the config.toml spelling)`
	case s == inline && key == "autostart":
		return `"autostart" is accepted only on a [[mcp_servers]] registration in config.toml`
	case key == "dir" || key == "workdir" || key == "working_directory":
		return `a stdio server's working directory is "cwd" (the project directory when left out)`
	}
	return ""
}

func isNetwork(t string) bool {
	return t == netguard.TransportHTTP || t == netguard.TransportSSE || t == netguard.TransportWebsocket
}

// decl is one checked server entry.
type decl struct {
	server   Server
	isRef    bool
	name     string // the name, id or ref; "" when unusable
	namePos  Pos
	allow    []string // a ref's own tools_allowlist
	allowAt  []Pos
	allowSet bool
	ok       bool // the entry raised no problem
}

// server checks one entry of an mcp_servers list on either surface.
func (c *checker) server(v *node, path string, surf surface, project string) decl {
	before := len(c.problems)
	var d decl
	if v.kind == kindBad {
		return d
	}
	if v.kind != kindTable {
		c.add(CodeType, v.pos, path, "each mcp_servers entry must be a table with %s and transport, got %s", surf.nameKey(), v.kind)
		return d
	}
	c.unknownKeys(v, path, surf.keys(), surf.keyHint)
	if surf == inline && v.get("ref") != nil {
		d = c.refEntry(v, path)
	} else {
		d = c.inlineEntry(v, path, surf, project)
	}
	d.ok = len(c.problems) == before
	return d
}

// refEntry checks `ref: <registration>` (+ only tools_allowlist).
func (c *checker) refEntry(v *node, path string) decl {
	d := decl{isRef: true}
	rf := v.get("ref")
	for _, f := range v.fields {
		if f.key == "ref" || f.key == "tools_allowlist" || !contains(inline.keys(), f.key) {
			continue
		}
		c.add(CodeRefExcludes, f.keyPos, join(path, f.key),
			"%q cannot sit beside \"ref\": a ref takes its whole connection from the [[mcp_servers]] registration it names, and only tools_allowlist may narrow it (drop ref and declare the server inline with id to set %s)", f.key, f.key)
	}
	if name, ok := c.required(rf, join(path, "ref"), "name the [[mcp_servers]] registration to use"); ok {
		if c.checkServerName(name, rf.at(), join(path, "ref"), "ref") {
			d.name, d.namePos = name, rf.at()
		}
	}
	if f := v.get("tools_allowlist"); f != nil {
		d.allow, d.allowAt, d.allowSet = c.allowlist(f, join(path, "tools_allowlist"))
	}
	d.server.Pos = v.pos
	return d
}

// inlineEntry checks a self-contained declaration (a registration, or an
// agent's inline entry).
func (c *checker) inlineEntry(v *node, path string, surf surface, project string) decl {
	var d decl
	s := &d.server
	s.Pos = v.pos
	nk := surf.nameKey()
	if f := v.get(nk); f == nil {
		c.add(CodeRequired, v.pos, join(path, nk), "missing %s: every server needs a name, used in its tool names mcp_<%s>_<tool>", nk, nk)
	} else if name, ok := c.required(f, join(path, nk), "every server needs a name"); ok {
		if c.checkServerName(name, f.at(), join(path, nk), nk) {
			s.Name, d.name, d.namePos = name, name, f.at()
		}
	}

	transport := ""
	if f := v.get("transport"); f == nil {
		c.add(CodeRequired, v.pos, join(path, "transport"), "missing transport: one of stdio, http, websocket")
	} else if t, ok := c.required(f, join(path, "transport"), "one of stdio, http, websocket"); ok {
		transport = c.transport(t, f.at(), join(path, "transport"))
	}
	s.Transport = transport

	stdioRefused, netRefused := c.misplaced(v, path, transport)
	c.programFields(v, path, transport, s, stdioRefused)
	c.endpointFields(v, path, transport, s, netRefused)
	if f := v.get("headers_helper"); f != nil && !netRefused["headers_helper"] && isNetwork(transport) {
		s.HeadersHelper, s.HelperDir = c.headersHelper(f, join(path, "headers_helper")), project
	}
	if transport == netguard.TransportStdio {
		s.Dir = project
		if f := v.get("cwd"); f != nil && !stdioRefused["cwd"] {
			s.Dir = c.cwd(f, join(path, "cwd"), project)
		}
		if f := v.get("env_file"); f != nil && !stdioRefused["env_file"] {
			s.EnvFile = c.projectPath(f, join(path, "env_file"), project, "the dotenv file read into the server's environment at spawn")
		}
	}
	if f := v.get("connect_timeout_ms"); f != nil {
		s.ConnectTimeout = c.connectTimeout(f, join(path, "connect_timeout_ms"))
	}
	if f := v.get("call_timeout_ms"); f != nil {
		s.CallTimeout = c.callTimeout(f, join(path, "call_timeout_ms"))
	}
	if f := v.get("tools_allowlist"); f != nil {
		s.ToolsAllowlist, _, _ = c.allowlist(f, join(path, "tools_allowlist"))
	}
	if f := v.get("tools_denylist"); f != nil {
		s.ToolsDenylist = c.denylist(f, join(path, "tools_denylist"), s.ToolsAllowlist)
	}
	if f := v.get("protocol"); f != nil {
		s.Protocol = c.protocol(f, join(path, "protocol"), transport)
	}
	if f := v.get("tools_auto_approve"); f != nil {
		s.ToolsAutoApprove, _, _ = c.toolList(f, join(path, "tools_auto_approve"), "")
	}
	if f := v.get("lint_suppress"); f != nil {
		s.LintSuppress = c.lintSuppress(f, join(path, "lint_suppress"))
	}
	c.oauthField(v, path, transport, s)
	c.sandboxField(v, path, transport, s)
	if f := v.get("autostart"); f != nil && surf == registration {
		s.Autostart, _ = c.boolean(f, join(path, "autostart"))
	}
	return d
}

// misplaced reports the fields of the other surface (stdio's program on a
// network transport, a network endpoint on stdio), symmetric on both, and
// returns them so no second problem is stacked on them.
func (c *checker) misplaced(v *node, path, transport string) (stdioRefused, netRefused map[string]bool) {
	stdioRefused, netRefused = map[string]bool{}, map[string]bool{}
	if isNetwork(transport) {
		for _, k := range []string{"command", "args", "env", "env_file", "cwd", "sandbox"} {
			if f := v.get(k); f != nil {
				stdioRefused[k] = true
				c.stdioOnly(f, join(path, k), transport)
			}
		}
	}
	if transport == netguard.TransportStdio {
		for _, k := range []string{"url", "allow_local_endpoint", "headers", "headers_helper"} {
			if f := v.get(k); f != nil {
				netRefused[k] = true
				c.add(CodeNetworkOnly, f.keyPos, join(path, k),
					"%q is a network-only field: a stdio server is a local program spawned from command (remove %s, or set transport to http or websocket)", k, k)
			}
		}
	}
	return stdioRefused, netRefused
}

// programFields reads a stdio server's command, args and env.
func (c *checker) programFields(v *node, path, transport string, s *Server, refused map[string]bool) {
	if f := v.get("command"); f != nil && !refused["command"] {
		s.Command = c.command(f, join(path, "command"))
	} else if f == nil && transport == netguard.TransportStdio {
		c.add(CodeRequired, v.pos, join(path, "command"), "missing command: a stdio server needs the program to spawn (args holds its arguments)")
	}
	if f := v.get("args"); f != nil && !refused["args"] {
		s.Args = c.args(f, join(path, "args"))
	}
	if f := v.get("env"); f != nil && !refused["env"] {
		s.Env = c.env(f, join(path, "env"))
	}
}

// endpointFields reads a network server's url and its local opt-in, and
// admits the url through the guard.
func (c *checker) endpointFields(v *node, path, transport string, s *Server, refused map[string]bool) {
	optInOK := true // a mistyped opt-in must not also raise an admission refusal
	if f := v.get("allow_local_endpoint"); f != nil && !refused["allow_local_endpoint"] {
		s.AllowLocalEndpoint, optInOK = c.boolean(f, join(path, "allow_local_endpoint"))
	}
	if f := v.get("url"); f != nil && !refused["url"] {
		if u, ok := c.required(f, join(path, "url"), "the server's endpoint, e.g. https://example.com/mcp"); ok {
			s.URL = u
			if isNetwork(transport) && optInOK {
				s.LocalHeld = c.url(u, transport, s.AllowLocalEndpoint, f.at(), join(path, "url"))
			}
		}
	} else if f == nil && isNetwork(transport) {
		c.add(CodeRequired, v.pos, join(path, "url"), "missing url: a server on transport %q needs the endpoint to connect to", transport)
	}
	if f := v.get("headers"); f != nil && !refused["headers"] {
		s.Headers = c.headers(f, join(path, "headers"))
	}
}

// transport checks the vocabulary and returns the transport to keep ("" when
// refused). sse is accepted with a deprecation warning.
func (c *checker) transport(t string, at Pos, path string) string {
	switch t {
	case netguard.TransportStdio, netguard.TransportHTTP, netguard.TransportWebsocket:
		return t
	case netguard.TransportSSE:
		c.warn(CodeSSEDeprecated, at, path, `transport "sse" is a deprecated alias of http: relavium connects with the legacy HTTP+SSE transport; prefer "http" (Streamable HTTP) when the server supports it`)
		return t
	}
	msg := fmt.Sprintf("unknown transport %q: use stdio (a local program), http (Streamable HTTP) or websocket (local only); sse is a deprecated alias of http", t)
	if h := transportHint(t); h != "" {
		msg += "; " + h
	}
	c.add(CodeTransport, at, path, "%s", msg)
	return ""
}

func transportHint(t string) string {
	l := strings.ToLower(strings.TrimSpace(t))
	switch l {
	case netguard.TransportStdio, netguard.TransportHTTP, netguard.TransportWebsocket, netguard.TransportSSE:
		return fmt.Sprintf("did you mean %q? (transport names are lowercase)", l)
	case "streamable-http", "streamable_http", "streamablehttp", "streamable", "https", "http-stream":
		return `did you mean "http"?`
	case "ws", "wss", "websockets", "web-socket", "web_socket":
		return `did you mean "websocket"?`
	case "stdin", "std", "local", "process", "command", "exec":
		return `did you mean "stdio"?`
	}
	if s := engine.Suggest(l, []string{netguard.TransportStdio, netguard.TransportHTTP, netguard.TransportWebsocket}); s != "" {
		return fmt.Sprintf("did you mean %q?", s)
	}
	return ""
}

func (c *checker) stdioOnly(f *field, path, transport string) {
	if f.key == "env" {
		c.add(CodeStdioOnly, f.keyPos, path,
			"env is refused on transport %q: env is injected into a spawned stdio process, and a network server has no process to inject into (remove env; a network server's credentials go in headers, e.g. headers = { Authorization = \"Bearer {{secrets.NAME}}\" })", transport)
		return
	}
	c.add(CodeStdioOnly, f.keyPos, path,
		"%q is a stdio-only field: a server on transport %q is reached at url, not spawned (remove %s, or set transport = \"stdio\")", f.key, transport, f.key)
}
