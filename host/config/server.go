package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
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
		return []string{"name", "transport", "command", "args", "env", "env_file", "cwd", "url", "allow_local_endpoint", "headers", "tools_allowlist", "tools_denylist", "tools_auto_approve", "connect_timeout_ms", "call_timeout_ms", "autostart", "protocol", "lint_suppress", "oauth", "sandbox"}
	}
	return []string{"id", "ref", "transport", "command", "args", "env", "env_file", "cwd", "url", "allow_local_endpoint", "headers", "connect_timeout_ms", "call_timeout_ms", "tools_allowlist", "tools_auto_approve", "protocol", "lint_suppress", "oauth", "sandbox"}
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
		for _, k := range []string{"url", "allow_local_endpoint", "headers"} {
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
				c.admitURL(u, transport, s.AllowLocalEndpoint, f.at(), join(path, "url"))
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

func (c *checker) command(f *field, path string) string {
	s, ok := c.required(f, path, "the program to spawn")
	if !ok {
		return ""
	}
	switch {
	case strings.ContainsRune(s, 0):
		c.add(CodeValue, f.at(), path, "contains a NUL byte, which no program name can hold")
		return ""
	case s != strings.TrimSpace(s):
		c.add(CodeValue, f.at(), path, "has leading or trailing white space: %q", s)
		return ""
	case looksLikeCommandLine(s):
		first, rest, _ := strings.Cut(s, " ")
		c.add(CodeValue, f.at(), path, "is one program, not a command line (no shell runs it): set command to %q and put [%s] in args", first, quoteList(strings.Fields(rest)))
		return ""
	case !c.pathRefs(s, f, path):
		return ""
	}
	return s
}

// pathRefs checks the references of a command or cwd: only {{env.VAR}} /
// {{env.VAR:-default}}, read from relavium's environment when the server
// is resolved (a secret never names a program or a directory).
func (c *checker) pathRefs(s string, f *field, path string) bool {
	if !strings.Contains(s, "{{") && !strings.Contains(s, "}}") {
		return true
	}
	spans, ok := consent.RefsIn(s)
	for _, sp := range spans {
		ok = ok && sp.Secret == ""
	}
	if ok && secretRefOK(s) {
		return true
	}
	c.add(CodeSecretRef, f.at(), path, "a {{…}} in a command or cwd must read {{env.VAR}} or {{env.VAR:-default}} (\"{{env.HOME}}/.local/bin/server\"), read from relavium's environment when the server is resolved; a secret is passed in env or an argument, never as a path")
	return false
}

// cwd is a stdio server's working directory: absolute, or relative to the
// project directory. It is digested, so consent names it.
func (c *checker) cwd(f *field, path, project string) string {
	if p := c.projectPath(f, path, project, "the directory the server runs in (leave cwd out for the project directory)"); p != "" {
		return p
	}
	return project
}

// projectPath is a path field (cwd, env_file): absolute as written, or
// relative to the project; "" when refused.
func (c *checker) projectPath(f *field, path, project, what string) string {
	s, ok := c.required(f, path, what)
	switch {
	case !ok:
		return ""
	case strings.ContainsRune(s, 0):
		c.add(CodeValue, f.at(), path, "contains a NUL byte, which no path can hold")
		return ""
	case strings.HasPrefix(s, "~"):
		c.add(CodeValue, f.at(), path, "starts with ~, which no shell expands here: write the absolute path")
		return ""
	case strings.HasPrefix(s, "{{env."):
		// "{{env.HOME}}/state": absolute once read, which resolution checks.
		if !c.pathRefs(s, f, path) {
			return ""
		}
		return s
	case !c.pathRefs(s, f, path):
		return ""
	case filepath.IsAbs(s):
		return filepath.Clean(s)
	}
	return filepath.Join(project, s)
}

func quoteList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, ", ")
}

// looksLikeCommandLine: a word, a blank, then more, where the word is no
// path ("npx -y pkg"). A path may hold blanks: "/opt/My App/server", and
// a Windows one, "C:\\Program Files\\nodejs\\node.exe".
func looksLikeCommandLine(s string) bool {
	first, _, found := strings.Cut(s, " ")
	return found && !strings.ContainsAny(first, "/\\") || strings.ContainsRune(s, '\t')
}

func (c *checker) args(f *field, path string) []string {
	items, _, ok := c.strItems(f, path, CodeType, "strings", "a string")
	vals := []string{}
	for _, it := range items {
		if strings.ContainsRune(it.val, 0) {
			c.add(CodeValue, it.pos, fmt.Sprintf("%s[%d]", path, it.index), "contains a NUL byte, which no process argument can hold")
			ok = false
		}
		if _, refs := consent.RefsIn(it.val); !refs {
			c.add(CodeSecretRef, it.pos, fmt.Sprintf("%s[%d]", path, it.index), "an {{env.…}} or {{secrets.…}} in an argument must read {{env.VAR}}, {{env.VAR:-default}} or {{secrets.NAME}} (alone or inside text, \"--db={{env.HOME}}/db\"); this one would be passed to the server literally")
			ok = false
		}
		vals = append(vals, it.val)
	}
	if !ok {
		return nil
	}
	return vals
}

func (c *checker) connectTimeout(f *field, path string) time.Duration {
	switch f.val.kind {
	case kindBad:
		return 0
	case kindInt:
		n := f.val.num
		switch {
		case n <= 0:
			c.add(CodeConnectTimeout, f.at(), path, "must be a positive number of milliseconds, got %d (leave it out for the transport's default)", n)
		case n > maxConnectTimeoutMS:
			c.add(CodeConnectTimeout, f.at(), path, "must be at most %d (10 minutes), got %d", maxConnectTimeoutMS, n)
		default:
			return time.Duration(n) * time.Millisecond
		}
		return 0
	}
	got := f.val.kind.String()
	if f.val.spelled != "" && f.val.kind != kindString {
		got += " (" + f.val.spelled + ")"
	}
	c.add(CodeConnectTimeout, f.at(), path, "must be a positive integer number of milliseconds, at most %d; got %s", maxConnectTimeoutMS, got)
	return 0
}

// allowlist checks tools_allowlist: tool names, each once, never empty.
// present is false when the field reads as absent (YAML null).
func (c *checker) allowlist(f *field, path string) (vals []string, at []Pos, present bool) {
	return c.toolList(f, path, "is empty, which would admit no tool at all: name the tools to admit, or remove tools_allowlist to admit every tool")
}

// denylist checks tools_denylist: tool names, each once (an empty list
// denies nothing). A name also in tools_allowlist is refused: the server
// would be told two opposite things about one tool.
func (c *checker) denylist(f *field, path string, allow []string) []string {
	vals, at, _ := c.toolList(f, path, "")
	for i, name := range vals {
		if contains(allow, name) {
			c.add(CodeToolsAllowlist, at[i], fmt.Sprintf("%s[%d]", path, i), "%q is in tools_allowlist too: a tool is admitted or denied, not both (remove it from one list)", name)
			return nil
		}
	}
	return vals
}

// toolList checks a list of exact tool names (tools_allowlist,
// tools_auto_approve): each a possible MCP tool name, each once. An empty
// list is refused with ifEmpty, unless ifEmpty is "" (tools_auto_approve =
// [] approves nothing, which is harmless).
func (c *checker) toolList(f *field, path, ifEmpty string) (vals []string, at []Pos, present bool) {
	items, present, ok := c.strItems(f, path, CodeToolsAllowlist, "tool names", "a tool name")
	if !present {
		return nil, nil, false
	}
	if ok && len(items) == 0 {
		if ifEmpty != "" {
			c.add(CodeToolsAllowlist, f.at(), path, "%s", ifEmpty)
		}
		return nil, nil, true
	}
	seen := map[string]strItem{}
	for _, it := range items {
		p := fmt.Sprintf("%s[%d]", path, it.index)
		switch name := it.val; {
		case name == "":
			c.add(CodeToolsAllowlist, it.pos, p, "is empty: name a tool the server lists")
			ok = false
		case len(name) > maxAllowlistEntryLen:
			c.add(CodeToolsAllowlist, it.pos, p, "is %d bytes long; MCP tool names are at most %d", len(name), maxAllowlistEntryLen)
			ok = false
		case strings.IndexFunc(name, badToolRune) >= 0:
			c.add(CodeToolsAllowlist, it.pos, p, "%q holds white space or a control character, which no admitted tool name can", name)
			ok = false
		}
		if first, dup := seen[it.val]; dup {
			c.add(CodeToolsAllowlist, it.pos, p, "%q is listed twice (first as %s[%d] at %d:%d): list each tool once", it.val, path, first.index, first.pos.Line, first.pos.Col).Related = []Pos{first.pos}
			ok = false
		} else {
			seen[it.val] = it
		}
		vals, at = append(vals, it.val), append(at, it.pos)
	}
	if !ok {
		return nil, nil, true
	}
	return vals, at, true
}

func badToolRune(r rune) bool {
	return r <= ' ' || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029
}

// admitURL asks the network guard, the one owner of url admission.
func (c *checker) admitURL(u, transport string, allowLocal bool, at Pos, path string) {
	err := netguard.AdmitURL(u, transport, allowLocal)
	if err == nil {
		return
	}
	msg := messageOf(err)
	var ne *netguard.Error
	if errors.As(err, &ne) {
		msg = ne.Msg
		if ne.Remedy != "" {
			msg += "; " + ne.Remedy
		}
	}
	c.add(CodeURL, at, path, "%s", msg).Cause = causeOf(err)
}

// messageOf is an error's text without its "E…: " code prefix, its cause
// kept (a refused url says why it does not parse). Not fault.MessageOf,
// which drops the cause: the problem's cause is all a reader gets of it.
func messageOf(err error) string {
	msg := err.Error()
	var ce fault.Coded
	if errors.As(err, &ce) {
		msg = strings.TrimPrefix(msg, string(ce.Code())+": ")
	}
	return msg
}

// causeOf keeps the owning package's code, message and envelope data (a
// netguard refusal's reason, address and remedy) for machine readers.
func causeOf(err error) any {
	var ce fault.Coded
	if !errors.As(err, &ce) {
		return err.Error()
	}
	cause := map[string]any{"code": ce.Code(), "message": messageOf(ce)}
	if d, ok := ce.(interface{ ErrorData() any }); ok && d.ErrorData() != nil {
		cause["data"] = d.ErrorData()
	}
	return cause
}
