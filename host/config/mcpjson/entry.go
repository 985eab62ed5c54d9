package mcpjson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// translator turns one file's entries into relavium's vocabulary.
type translator struct {
	file       *File
	opt        Options
	pluginRoot string // a plugin file's directory: ${CLAUDE_PLUGIN_ROOT}
	inputByID  map[string]Input
	inputKinds []string // ids of inputs that are not promptString
}

// entryKeys are the keys of a server entry relavium translates.
func entryKeys() []string {
	return []string{"type", "command", "args", "env", "envFile", "cwd", "url", "serverUrl", "headers", "headersHelper", "disabled", "timeout", "timeout_ms", "disabledTools"}
}

// entry translates one server; every problem names the place it is written.
func (t *translator) entry(m Member, path string, vscode bool) {
	before := len(t.file.Problems)
	e := Entry{Written: m.Key, Path: path, Pos: m.KeyPos}
	v := m.Value
	if v.Kind != Object {
		t.file.Problems.Add(CodeShape, v.Pos, path, "a server is an object (command, args, env or type, url), got %s", v.Kind)
		return
	}
	if d := v.Get("disabled"); d != nil && d.Value.Kind == Bool && d.Value.Bool {
		t.file.Warnings.Add(CodeDisabled, d.KeyPos, path+".disabled", "server %q is disabled in this file, so it is not imported (remove \"disabled\" there, or declare it in .relavium/config.toml, to use it)", m.Key)
		return
	}
	if d := v.Get("enabled"); d != nil && d.Value.Kind == Bool && !d.Value.Bool {
		t.file.Warnings.Add(CodeDisabled, d.KeyPos, path+".enabled", "server %q is not enabled in this file (\"enabled\": false), so it is not imported (set it true there, or declare it in .relavium/config.toml, to use it)", m.Key)
		return
	}
	name, ok := m.Key, true
	if t.opt.Name != nil {
		name, ok = t.opt.Name(m.Key)
	}
	switch {
	case !ok:
		t.file.Problems.Add(CodeRenamed, m.KeyPos, path, "no relavium server name can be made from %q (names are lowercase letters, digits and '-'): rename it in this file", m.Key)
	case name != m.Key:
		t.file.Warnings.Add(CodeRenamed, m.KeyPos, path, "server %q is imported as %q: relavium names are 1-48 lowercase letters, digits and '-', because a name becomes part of every tool name mcp_<server>_<tool>", m.Key, name)
	}
	e.Name = name
	e.Fields = append(e.Fields, Member{Key: "name", KeyPos: m.KeyPos, Value: &Value{Kind: String, Str: name, Pos: m.KeyPos}})
	for _, f := range v.Members {
		switch {
		case slices.Contains(entryKeys(), f.Key), informs(f), f.Key == "transport" && f.Value.Kind == String:
		case f.Key == "autoApprove" || f.Key == "alwaysAllow":
			// Approvals are relavium's own: the server runs as the file
			// means it, its tools are asked for as any server's are.
			t.file.Warnings.Add(CodeUnsupported, f.KeyPos, path+jsonKey(f.Key), "%q is not imported: approvals are relavium's own (tools_auto_approve in .relavium/config.toml, or answering always); each call is asked for until then", f.Key)
		default:
			t.file.Problems.Add(CodeUnsupported, f.KeyPos, path+jsonKey(f.Key), "%s", unsupported(f.Key))
		}
	}
	t.transport(v, path, &e, vscode)
	t.program(v, path, &e)
	t.endpoint(v, path, &e)
	t.timeout(v, path, &e)
	if m := v.Get("disabledTools"); m != nil {
		t.disabledTools(m, path+".disabledTools", &e)
	}
	e.Failed = len(t.file.Problems) > before
	t.file.Entries = append(t.file.Entries, e)
}

// informs reports whether f is a key that informs a person or the client
// but does not change how the server runs, so it is read past: a label
// (description, name, $comment), VS Code's dev (watch and debug for the
// server's author), gallery and version (where VS Code installed it from),
// enabled true.
func informs(f Member) bool {
	switch f.Key {
	case "description", "name", "title", "$comment", "dev", "gallery", "version":
		return true
	case "enabled":
		return f.Value.Kind == Bool && f.Value.Bool
	}
	return false
}

// unsupported says why a key does not translate.
func unsupported(key string) string {
	switch key {
	case "autoApprove", "alwaysAllow":
		return fmt.Sprintf("%q has no counterpart here: approvals are relavium's own (tools_auto_approve in .relavium/config.toml, or answering always)", key)
	case "tools", "includeTools", "excludeTools":
		return fmt.Sprintf("%q has no counterpart here: narrow a server's tools with tools_allowlist in .relavium/config.toml", key)
	case "oauth", "auth":
		return fmt.Sprintf("%q (the client's OAuth settings) does not translate: declare the server in .relavium/config.toml with relavium's own oauth table", key)
	case "transport":
		return `"transport" as an object is not a shape any client documents: write type (or transport) as a string, and url, on the server itself`
	}
	return fmt.Sprintf("%q has no counterpart in relavium, so the server would not run as this file means it (relavium reads type, command, args, env, cwd, url, headers, headersHelper and disabled)", key)
}

// maxTimeoutSeconds is the longest timeout a file may give: an hour, the
// most call_timeout_ms holds (and the most Cline and Roo Code accept).
const maxTimeoutSeconds = 3600

// timeout maps a client's per-request timeout to call_timeout_ms, the idle
// deadline of each tool call: "timeout" is in seconds, as Cline and Roo
// Code write it (their range is 1–3600, default 60), "timeout_ms" in
// milliseconds; one over an hour is capped at an hour with a warning.
// Neither is a connect timeout: both clients bound each
// request, which is what call_timeout_ms bounds; relavium's connect
// timeout keeps the transport's default.
func (t *translator) timeout(v *Value, path string, e *Entry) {
	if a, b := v.Get("timeout"), v.Get("timeout_ms"); a != nil && b != nil {
		t.file.Problems.Add(CodeType, b.KeyPos, path+".timeout_ms", "the server gives both timeout (seconds) and timeout_ms: keep one")
		return
	}
	for _, key := range []string{"timeout", "timeout_ms"} {
		m := v.Get(key)
		if m == nil {
			continue
		}
		unit, scale := "seconds", int64(1000)
		if key == "timeout_ms" {
			unit, scale = "milliseconds", 1
		}
		n, err := strconv.ParseInt(m.Value.Str, 10, 64)
		switch {
		case m.Value.Kind != Number || err != nil:
			t.file.Problems.Add(CodeType, m.Value.Pos, path+"."+key, "must be a whole number of %s, got %s %s", unit, m.Value.Kind, m.Value.Str)
		case n <= 0:
			t.file.Problems.Add(CodeType, m.Value.Pos, path+"."+key, "must be 1 to %d %s (it becomes call_timeout_ms, the idle deadline of each call), got %d", maxTimeoutSeconds*1000/scale, unit, n)
		case n > maxTimeoutSeconds*1000/scale:
			// Cline sets no upper bound, so a file may well say 60000
			// (meant as milliseconds, or as 16 hours): the server runs
			// with the longest deadline relavium holds, and a warning
			// says so, rather than failing over a generous timeout.
			t.file.Warnings.Add(CodeType, m.Value.Pos, path+"."+key, "%d %s is over the hour a call may wait here: the server is imported with call_timeout_ms = %d (if %d was meant as milliseconds, write timeout_ms)", n, unit, maxTimeoutSeconds*1000, n)
			e.Fields = append(e.Fields, Member{Key: "call_timeout_ms", KeyPos: m.KeyPos, Value: &Value{Kind: Number, Str: strconv.Itoa(maxTimeoutSeconds * 1000), Pos: m.Value.Pos}})
		default:
			ms := strconv.FormatInt(n*scale, 10)
			e.Fields = append(e.Fields, Member{Key: "call_timeout_ms", KeyPos: m.KeyPos, Value: &Value{Kind: Number, Str: ms, Pos: m.Value.Pos}})
		}
	}
}

// disabledTools becomes tools_denylist: the tools the client never offers
// are skipped at discovery (in_denylist), and the registration rules check
// the names as they check tools_allowlist's.
func (t *translator) disabledTools(m *Member, path string, e *Entry) {
	out := &Value{Kind: Array, Pos: m.Value.Pos}
	if m.Value.Kind != Array {
		t.file.Problems.Add(CodeType, m.Value.Pos, path, "must be an array of tool names, got %s", m.Value.Kind)
		return
	}
	for i, it := range m.Value.Items {
		if it.Kind != String {
			t.file.Problems.Add(CodeType, it.Pos, fmt.Sprintf("%s[%d]", path, i), "must be a tool name, got %s", it.Kind)
			return
		}
		out.Items = append(out.Items, it)
	}
	e.Fields = append(e.Fields, Member{Key: "tools_denylist", KeyPos: m.KeyPos, Value: out})
}

// transport maps type (and, without one, url or serverUrl) to relavium's.
func (t *translator) transport(v *Value, path string, e *Entry, vscode bool) {
	tm := v.Get("type")
	if tr := v.Get("transport"); tm == nil && tr != nil && tr.Value.Kind == String {
		tm = tr // Cursor accepts "transport": "http" where others write type
	}
	at, keyAt := v.Pos, v.Pos
	kind := ""
	switch {
	case tm != nil && tm.Value.Kind != String:
		t.file.Problems.Add(CodeType, tm.Value.Pos, path+".type", "must be a string, got %s", tm.Value.Kind)
		return
	case tm != nil:
		kind, at, keyAt = tm.Value.Str, tm.Value.Pos, tm.KeyPos
	case v.Get("url") != nil || v.Get("serverUrl") != nil:
		kind = "http"
	default:
		kind = "stdio"
	}
	var transport string
	switch kind {
	case "stdio":
		transport = "stdio"
	case "http", "streamable-http", "streamableHttp", "streamable_http":
		transport = "http"
	case "sse":
		transport = "sse"
	default:
		hint := "stdio, http (also written streamable-http) or sse"
		if vscode {
			hint = "stdio, http or sse"
		}
		t.file.Problems.Add(CodeType, at, path+".type", "type %q has no relavium transport: use %s", kind, hint)
		return
	}
	e.Fields = append(e.Fields, Member{Key: "transport", KeyPos: keyAt, Value: &Value{Kind: String, Str: transport, Pos: at}})
}

// program translates command, args, env and cwd.
func (t *translator) program(v *Value, path string, e *Entry) {
	if m := v.Get("command"); m != nil {
		if s, ok := t.pathValue(m, path+".command"); ok {
			if shellString(s) {
				first, rest, _ := strings.Cut(strings.TrimSpace(s), " ")
				t.file.Problems.Add(CodeShellString, m.Value.Pos, path+".command",
					"is a shell command line, and relavium runs one program with no shell: write command %q and args [%s] (a pipe, redirection or && needs an explicit shell, e.g. command \"sh\" and args [\"-c\", \"...\"])",
					first, quoteWords(strings.Fields(rest)))
			} else {
				e.Fields = append(e.Fields, Member{Key: "command", KeyPos: m.KeyPos, Value: &Value{Kind: String, Str: s, Pos: m.Value.Pos}})
			}
		}
	}
	if m := v.Get("args"); m != nil {
		e.Fields = append(e.Fields, t.args(m, path+".args", e))
	}
	if m := v.Get("env"); m != nil {
		e.Fields = append(e.Fields, t.env(m, path+".env", e))
	}
	if m := v.Get("envFile"); m != nil {
		// Read at spawn under the env denylist (relavium's env_file).
		if s, ok := t.pathValue(m, path+".envFile"); ok {
			e.Fields = append(e.Fields, Member{Key: "env_file", KeyPos: m.KeyPos, Value: &Value{Kind: String, Str: s, Pos: m.Value.Pos}})
		}
	}
	if m := v.Get("cwd"); m != nil {
		if s, ok := t.pathValue(m, path+".cwd"); ok {
			e.Fields = append(e.Fields, Member{Key: "cwd", KeyPos: m.KeyPos, Value: &Value{Kind: String, Str: s, Pos: m.Value.Pos}})
		}
	}
}

// endpoint translates url (Windsurf writes serverUrl) and headers.
func (t *translator) endpoint(v *Value, path string, e *Entry) {
	for _, key := range []string{"url", "serverUrl"} {
		if m := v.Get(key); m != nil {
			if s, ok := t.urlValue(m, path+"."+key, e); ok {
				e.Fields = append(e.Fields, Member{Key: "url", KeyPos: m.KeyPos, Value: &Value{Kind: String, Str: s, Pos: m.Value.Pos}})
			}
		}
	}
	if m := v.Get("headers"); m != nil {
		e.Fields = append(e.Fields, t.headers(m, path+".headers", e))
	}
	if m := v.Get("headersHelper"); m != nil {
		if s, ok := t.helperValue(m, path+".headersHelper"); ok {
			e.Fields = append(e.Fields, Member{Key: "headers_helper", KeyPos: m.KeyPos, Value: &Value{Kind: String, Str: s, Pos: m.Value.Pos}})
		}
	}
}

// helperValue is Claude Code's headersHelper, a shell line, as relavium's
// headers_helper: ${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PROJECT_DIR} and
// ${workspaceFolder} become the directory they name (one holding a quote,
// $, a backquote or a backslash is refused: it would change what the line
// says), each ${VAR} / ${env:VAR} {{env.VAR}}, which the helper's shell
// reads from a variable of its own (config's rule); an ${input:…} is
// refused (a typed secret is never handed to a program this way).
func (t *translator) helperValue(m *Member, path string) (string, bool) {
	if m.Value.Kind != String {
		t.file.Problems.Add(CodeType, m.Value.Pos, path, "must be a string, got %s", m.Value.Kind)
		return "", false
	}
	for _, d := range []struct{ ref, dir string }{{"${CLAUDE_PLUGIN_ROOT}", t.pluginRoot}, {"${CLAUDE_PROJECT_DIR}", t.opt.Project}, {"${workspaceFolder}", t.opt.Project}} {
		if strings.Contains(m.Value.Str, d.ref) && strings.ContainsAny(d.dir, "\"$`\\'\n") {
			t.file.Problems.Add(CodeVariable, m.Value.Pos, path, "names %s, whose directory %q holds a quote, $, a backquote or a backslash: put in the shell line it would change what the line says", d.ref, d.dir)
			return "", false
		}
	}
	return t.refs("", t.workspace(m.Value.Str), m.Value, path, nil, false)
}

// headers translates a network server's headers: text in which each
// reference is translated as an argument's is (textRefs) — ${input:id}
// becomes the secret {{secrets.id}}, ${VAR} / ${env:VAR} becomes
// {{env.VAR}} ("Bearer ${API_KEY}", as Claude Code expands it). Either is
// a value sent to the server's origin, so config and the session bind it
// there before it is read (an environment value as env.VAR), and a
// default, which would be a credential written in the file, is refused
// (config's E230; E241 under a name that says secret).
func (t *translator) headers(m *Member, path string, e *Entry) Member {
	out := &Value{Kind: Object, Pos: m.Value.Pos}
	if m.Value.Kind != Object {
		t.file.Problems.Add(CodeType, m.Value.Pos, path, "must be an object of Name: \"value\", got %s", m.Value.Kind)
		return Member{Key: "headers", KeyPos: m.KeyPos, Value: out}
	}
	for _, h := range m.Value.Members {
		p := path + jsonKey(h.Key)
		if h.Value.Kind != String {
			t.file.Problems.Add(CodeType, h.Value.Pos, p, "must be a string, got %s", h.Value.Kind)
			continue
		}
		text, ok := t.textRefs("", t.workspace(h.Value.Str), h.Value, p, e)
		if !ok {
			continue
		}
		out.Members = append(out.Members, Member{Key: h.Key, KeyPos: h.KeyPos, Value: &Value{Kind: String, Str: text, Pos: h.Value.Pos}})
	}
	return Member{Key: "headers", KeyPos: m.KeyPos, Value: out}
}

func (t *translator) args(m *Member, path string, e *Entry) Member {
	out := &Value{Kind: Array, Pos: m.Value.Pos}
	if m.Value.Kind != Array {
		t.file.Problems.Add(CodeType, m.Value.Pos, path, "must be an array of strings, got %s", m.Value.Kind)
		return Member{Key: "args", KeyPos: m.KeyPos, Value: out}
	}
	for i, it := range m.Value.Items {
		p := fmt.Sprintf("%s[%d]", path, i)
		s, ok := t.argValue(it, p, e)
		if ok {
			out.Items = append(out.Items, &Value{Kind: String, Str: s, Pos: it.Pos})
		}
	}
	return Member{Key: "args", KeyPos: m.KeyPos, Value: out}
}

// argValue is one argument: text in which each reference, alone or
// inside text, is translated by textRefs.
func (t *translator) argValue(v *Value, path string, e *Entry) (string, bool) {
	if v.Kind != String {
		t.file.Problems.Add(CodeType, v.Pos, path, "must be a string, got %s", v.Kind)
		return "", false
	}
	return t.textRefs("", t.workspace(v.Str), v, path, e)
}

// textRefs translates every ${…} of a text (an argument, an env value),
// alone or inside text ("--state=${env:HOME}/state"):
//
//	${VAR}, ${env:VAR}   → {{env.VAR}}          (read at spawn)
//	${VAR:-default}      → {{env.VAR:-default}}
//	${userHome}          → {{env.HOME}}         (VS Code's own variable)
//	${input:id}          → {{secrets.id}}       (VS Code: asked for)
//
// The digest holds the text with the references, never a value. A nested
// or unclosed ${…} is refused (it would reach the server as written), and
// so is a default under a name that says secret (name: the env variable
// the text is the value of, "" for an argument): it would be digested as a
// literal.
func (t *translator) textRefs(name, s string, v *Value, path string, e *Entry) (string, bool) {
	return t.refs(name, s, v, path, e, true)
}

// pathValue is a command, cwd or envFile: text in which each environment
// reference becomes {{env.VAR}}, read from relavium's environment when the
// server is resolved (${workspaceFolder} is the project directory). An
// ${input:…} is refused: a secret never names a program or a directory.
func (t *translator) pathValue(m *Member, path string) (string, bool) {
	if m.Value.Kind != String {
		t.file.Problems.Add(CodeType, m.Value.Pos, path, "must be a string, got %s", m.Value.Kind)
		return "", false
	}
	return t.refs("", t.workspace(m.Value.Str), m.Value, path, nil, false)
}

func (t *translator) refs(name, s string, v *Value, path string, e *Entry, inputs bool) (string, bool) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), true
		}
		end := strings.IndexByte(s[i:], '}')
		ref, ok := reference{}, false
		if end >= 0 {
			ref, ok = parseRef(s[i : i+end+1])
		}
		switch {
		case !ok:
			t.file.Problems.Add(CodeVariable, v.Pos, path, "translates ${…} references from the environment or VS Code's inputs (\"${VAR}\", \"${VAR:-default}\", \"${env:VAR}\", \"${input:id}\", alone or inside text); a nested or unclosed one would reach the server as written")
			return "", false
		case ref.input != "" && !inputs:
			t.file.Problems.Add(CodeVariable, v.Pos, path, "holds ${input:%s}: a typed secret never names a program, a directory or a file; write the path out", ref.input)
			return "", false
		case ref.input != "":
			sec, ok := t.input(ref.input, v, path, e)
			if !ok {
				return "", false
			}
			b.WriteString(s[:i])
			b.WriteString(sec)
			s = s[i+end+1:]
			continue
		case ref.hasDefault && ref.def != "" && (SecretLike(ref.name) || name != "" && SecretLike(name)):
			who := ref.name
			if name != "" {
				who = name
			}
			t.file.Problems.Add(CodeSecretValue, v.Pos, path, "the default of ${%s:-…} would be digested and kept as a literal value, and %s names a secret: set %s in the environment and drop the default, or use {{secrets.NAME}} in .relavium/config.toml", ref.name, who, ref.name)
			return "", false
		}
		b.WriteString(s[:i])
		b.WriteString("{{env." + ref.name)
		if ref.hasDefault {
			b.WriteString(":-" + ref.def)
		}
		b.WriteString("}}")
		s = s[i+end+1:]
	}
}

// urlValue is a network server's url: text in which each reference is
// translated as an argument's is (textRefs), ${input:id} included — the
// url is shown, recorded and locked as written, and expanded when it is
// dialled. Where a reference may sit (the whole origin, host or port from
// the environment; a value in the path or query bound to the origin) is
// config's rule, checked on the translated entry as on a [[mcp_servers]]
// url.
func (t *translator) urlValue(m *Member, path string, e *Entry) (string, bool) {
	if m.Value.Kind != String {
		t.file.Problems.Add(CodeType, m.Value.Pos, path, "must be a string, got %s", m.Value.Kind)
		return "", false
	}
	return t.textRefs("", t.workspace(m.Value.Str), m.Value, path, e)
}

// workspace replaces the variables a client itself sets: VS Code's
// ${workspaceFolder} and Claude Code's ${CLAUDE_PROJECT_DIR} are the
// project directory, a Claude Code plugin's ${CLAUDE_PLUGIN_ROOT} its
// file's directory.
func (t *translator) workspace(s string) string {
	if t.pluginRoot != "" {
		s = strings.ReplaceAll(s, "${CLAUDE_PLUGIN_ROOT}", t.pluginRoot)
	}
	if t.opt.Project == "" {
		return s
	}
	s = strings.ReplaceAll(s, "${CLAUDE_PROJECT_DIR}", t.opt.Project)
	return strings.ReplaceAll(s, "${workspaceFolder}", t.opt.Project)
}

// shellString: shell syntax, or a program followed by words where the
// program is no path ("npx -y pkg"; "/opt/My App/server" is a path).
func shellString(s string) bool {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "|&;<>`\n") || strings.Contains(s, "$(") {
		return true
	}
	first, _, found := strings.Cut(s, " ")
	return found && !strings.ContainsAny(first, `/\`) || strings.ContainsRune(s, '\t')
}

func quoteWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, ", ")
}
