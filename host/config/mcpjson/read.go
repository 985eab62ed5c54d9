package mcpjson

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/relavium/relavium/authored"
)

// The shapes a client file comes in.
const (
	// ShapeMCPServers is {"mcpServers": {NAME: {...}}}: Claude Desktop,
	// Claude Code's .mcp.json, Cursor, Windsurf, the Inspector's catalog.
	ShapeMCPServers = "mcpServers"
	// ShapeVSCode is {"servers": {NAME: {"type": ...}}, "inputs": [...]}.
	ShapeVSCode = "vscode"
	// ShapeClaudeState is ~/.claude.json: user-scope mcpServers and, per
	// project directory, projects[DIR].mcpServers.
	ShapeClaudeState = "claude-state"
	// ShapePlugin is a Claude Code plugin's .mcp.json: the server map
	// itself, {NAME: {...}}, at the top (${CLAUDE_PLUGIN_ROOT} is the
	// file's directory).
	ShapePlugin = "plugin"
)

// Options are what a reading needs from outside the file.
type Options struct {
	// Project is the absolute project directory: what ${workspaceFolder}
	// stands for, and which projects[DIR] of ~/.claude.json is read.
	Project string
	// Name maps a server name as written to a relavium name: ok false when
	// no name can be made from it. It is the config package's name rule,
	// passed in so that one rule decides.
	Name func(written string) (name string, ok bool)
}

// File is what one client file holds, translated.
type File struct {
	Path    string
	Shape   string
	Entries []Entry
	// Problems are refusals (exit 2); Warnings are shown and not fatal
	// (a renamed server, a disabled one left out).
	Problems authored.Problems
	Warnings authored.Problems
}

// Entry is one server of the file in relavium's vocabulary: Fields are
// keyed name, transport, command, args, env, cwd, url, headers, each value keeping
// the place it was written (a transport the file leaves implicit takes the
// server's own place).
type Entry struct {
	Name    string       // the relavium name (Written, mapped when needed)
	Written string       // the name as the file writes it
	Path    string       // JSON path of the entry, e.g. mcpServers.github
	Pos     authored.Pos // where the entry's name is written
	Fields  []Member
	// Failed: a problem was reported for this entry; it is not imported
	// (and not checked further, so no second problem is stacked on it).
	Failed bool
	// Inputs are the VS Code inputs the entry's env uses, by secret name.
	Inputs []Input
}

// Input is one VS Code promptString input an entry uses: relavium asks for
// it as the secret named ID.
type Input struct {
	ID          string `json:"id"`
	Description string `json:"description,omitempty"`
	Password    bool   `json:"password,omitempty"`
}

// Read parses and translates one client file. Its shape is told by its
// content: "servers" is VS Code's, "projects" marks ~/.claude.json, and
// "mcpServers" every other client's.
func Read(path string, data []byte, opt Options) *File {
	f := &File{Path: path}
	lim := FileLimits()
	if filepath.Base(path) == ".claude.json" {
		lim = StateLimits()
	}
	root, prob := Parse(path, data, lim)
	if prob != nil {
		f.Problems = append(f.Problems, *prob)
		return f
	}
	top := authored.Pos{File: path, Line: 1, Col: 1}
	if root.Kind != Object {
		f.Problems.Add(CodeShape, root.Pos, "", "the file holds %s, not an object with mcpServers or servers", root.Kind)
		return f
	}
	t := &translator{file: f, opt: opt}
	switch {
	case root.Get("projects") != nil:
		f.Shape = ShapeClaudeState
		t.claudeState(root)
	case root.Get("servers") != nil:
		f.Shape = ShapeVSCode
		t.inputs(root.Get("inputs"))
		t.servers(root.Get("servers"), "servers", true)
	case root.Get("mcpServers") != nil:
		f.Shape = ShapeMCPServers
		t.servers(root.Get("mcpServers"), "mcpServers", false)
	case serverMap(root):
		f.Shape = ShapePlugin
		t.pluginRoot = filepath.Dir(path)
		for _, m := range root.Members {
			t.entry(m, m.Key, false)
		}
	default:
		f.Problems.Add(CodeShape, top, "", `no "mcpServers" (Claude, Cursor, Windsurf, the Inspector) or "servers" (VS Code) object: this is not a client's MCP server file`)
	}
	return f
}

// claudeState reads ~/.claude.json: its user-scope servers, then the
// project's own (local scope), as Claude Code merges them.
func (t *translator) claudeState(root *Value) {
	if m := root.Get("mcpServers"); m != nil {
		t.servers(m, "mcpServers", false)
	}
	projects := root.Get("projects")
	if projects.Value.Kind != Object || t.opt.Project == "" {
		return
	}
	for _, p := range projects.Value.Members {
		if filepath.Clean(p.Key) != filepath.Clean(t.opt.Project) || p.Value.Kind != Object {
			continue
		}
		if m := p.Value.Get("mcpServers"); m != nil {
			t.servers(m, "projects"+jsonKey(p.Key)+".mcpServers", false)
		}
	}
}

func (t *translator) servers(m *Member, path string, vscode bool) {
	if m.Value.Kind != Object {
		t.file.Problems.Add(CodeShape, m.Value.Pos, path, "must be an object of NAME: {server}, got %s", m.Value.Kind)
		return
	}
	for _, s := range m.Value.Members {
		t.entry(s, path+jsonKey(s.Key), vscode)
	}
}

// jsonKey is ".key" for a plain key, else `["key"]`.
func jsonKey(k string) string {
	plain := k != ""
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			plain = false
		}
	}
	if plain {
		return "." + k
	}
	return "[" + strconv.Quote(k) + "]"
}

// inputs reads VS Code's inputs list: the promptString ones are what an
// ${input:id} can name.
func (t *translator) inputs(m *Member) {
	t.inputByID = map[string]Input{}
	if m == nil {
		return
	}
	if m.Value.Kind != Array {
		t.file.Problems.Add(CodeType, m.Value.Pos, "inputs", "must be an array of inputs, got %s", m.Value.Kind)
		return
	}
	for i, it := range m.Value.Items {
		path := fmt.Sprintf("inputs[%d]", i)
		if it.Kind != Object {
			t.file.Problems.Add(CodeType, it.Pos, path, "must be an object with type and id, got %s", it.Kind)
			continue
		}
		id, kind := stringOf(it.Get("id")), stringOf(it.Get("type"))
		if id == "" {
			t.file.Problems.Add(CodeInput, it.Pos, path, "an input needs an id")
			continue
		}
		if kind != "promptString" {
			t.inputKinds = append(t.inputKinds, id)
			continue // a pickString input: refused where it is used
		}
		pw := it.Get("password")
		t.inputByID[id] = Input{ID: id, Description: stringOf(it.Get("description")), Password: pw != nil && pw.Value.Kind == Bool && pw.Value.Bool}
	}
}

func stringOf(m *Member) string {
	if m == nil || m.Value.Kind != String {
		return ""
	}
	return m.Value.Str
}

// serverMap reports whether v is a server map written at the top, as a
// Claude Code plugin's .mcp.json is: a non-empty object whose every member
// is an object with a command or a url.
func serverMap(v *Value) bool {
	for _, m := range v.Members {
		if m.Value.Kind != Object || m.Value.Get("command") == nil && m.Value.Get("url") == nil {
			return false
		}
	}
	return len(v.Members) > 0
}
