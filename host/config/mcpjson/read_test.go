package mcpjson

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relavium/relavium/authored"
)

func fixtureBytes(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The shape is told by the content, and each fixture (written from its
// client's documentation) reads without a problem.
func TestReadShapes(t *testing.T) {
	for name, shape := range map[string]string{
		"claude_desktop_config.json": ShapeMCPServers, "claude_code.mcp.json": ShapeMCPServers, "cursor.mcp.json": ShapeMCPServers,
		"windsurf_mcp_config.json": ShapeMCPServers, "inspector_mcp.json": ShapeMCPServers, "vscode.mcp.json": ShapeVSCode,
		"claude.json": ShapeClaudeState,
	} {
		f := Read(name, fixtureBytes(t, name), Options{Project: "/data/app"})
		if f.Shape != shape || len(f.Problems) != 0 || len(f.Entries) == 0 {
			t.Errorf("%s: shape %q, %d entries, problems %v", name, f.Shape, len(f.Entries), f.Problems)
		}
	}
	for _, bad := range []string{`[]`, `{"servers": []}`, `{"preferences": {}}`, `{"mcpServers": {"a": 1}}`} {
		f := Read("f.json", []byte(bad), Options{})
		if len(f.Problems) != 1 || (f.Problems[0].Code != CodeShape) {
			t.Errorf("%s: %v", bad, f.Problems)
		}
	}
}

func TestReadInputs(t *testing.T) {
	src := `{"inputs": [{"type": "pickString", "id": "pick", "options": ["a"]}, {"type": "promptString", "id": "bad id!"}],
"servers": {"a": {"type": "stdio", "command": "/bin/x", "env": {"A": "${input:pick}", "B": "${input:none}", "C": "${input:bad id!}"}}}}`
	f := Read("f.json", []byte(src), Options{})
	var got []string
	for _, p := range f.Problems {
		got = append(got, string(p.Code)+" "+p.Field)
	}
	// A pick list and an id no secret can hold are refused; an undeclared
	// id is asked for (a warning).
	want := "E242 servers.a.env.A,E242 servers.a.env.C"
	if strings.Join(got, ",") != want {
		t.Errorf("problems %v, want %s", got, want)
	}
	if len(f.Warnings) != 1 || f.Warnings[0].Field != "servers.a.env.B" {
		t.Errorf("warnings %v, want one for servers.a.env.B", f.Warnings)
	}
	for _, bad := range []string{`${input:bad id!}`, `${input:a/b}`, `x${input:ü}`} {
		f = Read("f.json", []byte(`{"mcpServers": {"a": {"command": "/bin/x", "env": {"A": "`+bad+`"}}}}`), Options{})
		if len(f.Problems) != 1 || f.Problems[0].Code != CodeInput || !strings.Contains(f.Problems[0].Message, "cannot name a relavium secret") {
			t.Errorf("%s outside a VS Code file: %v", bad, f.Problems)
		}
	}
}

// An ${input:id} the file does not declare (an .mcp.json has no inputs
// list; a VS Code file may name one it forgot) is asked for as a declared
// promptString with password true would be: the entry carries the input,
// the reference becomes {{secrets.id}}, and a warning at its place says
// relavium will ask for it as a hidden value.
func TestReadUndeclaredInput(t *testing.T) {
	mcp := "{\n  \"mcpServers\": {\n    \"jenkins\": {\n      \"type\": \"http\",\n      \"url\": \"https://ci.example.com/mcp\",\n" +
		"      \"headers\": {\n        \"Authorization\": \"Basic ${input:jenkins-basic-auth}\"\n      }\n    }\n  }\n}\n"
	vscode := `{"servers": {"github": {"command": "npx", "args": ["-y", "pkg"], "type": "stdio",
  "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${input:github_pat}"}}},
 "inputs": [{"id": "token", "type": "promptString", "description": "GitHub Personal Access Token"}]}`
	for _, tc := range []struct {
		name, src, field, value, because string
		line, col                        int
	}{
		{".mcp.json", mcp, "mcpServers.jenkins.headers.Authorization", "Basic {{secrets.jenkins-basic-auth}}", "only a VS Code file (servers and inputs) declares inputs", 7, 26},
		{"mcp.json", vscode, "servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN", "{{secrets.github_pat}}", `names no input of this file's inputs list (it declares "token")`, 2, 43},
	} {
		f := Read(tc.name, []byte(tc.src), Options{})
		if len(f.Problems) != 0 || len(f.Entries) != 1 || f.Entries[0].Failed {
			t.Fatalf("%s: problems %v entries %+v", tc.name, f.Problems, f.Entries)
		}
		e := f.Entries[0]
		id := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(tc.value, "Basic "), "{{secrets."), "}}")
		if len(e.Inputs) != 1 || e.Inputs[0] != (Input{ID: id, Password: true}) {
			t.Errorf("%s: inputs %+v, want only %s, asked hidden", tc.name, e.Inputs, id)
		}
		if v := fieldString(e, tc.field); v != tc.value {
			t.Errorf("%s: %s = %q, want %q", tc.name, tc.field, v, tc.value)
		}
		if len(f.Warnings) != 1 {
			t.Fatalf("%s: warnings %v", tc.name, f.Warnings)
		}
		w := f.Warnings[0]
		if w.Code != CodeInput {
			t.Errorf("%s: warning code %s, want E242", tc.name, w.Code)
		}
		msg := w.String()
		for _, part := range []string{fmt.Sprintf("%s:%d:%d: %s: ", tc.name, tc.line, tc.col, tc.field), "${input:" + id + "}", tc.because,
			"relavium will ask for it as a hidden value", "the secret " + id} {
			if !strings.Contains(msg, part) {
				t.Errorf("%s: warning %q lacks %q", tc.name, msg, part)
			}
		}
	}
}

// The same undeclared id twice in one server is one input and one
// warning; in two servers each carries it (each is imported, or fails,
// on its own). Declared and undeclared mix: the declared keeps its
// description.
func TestReadUndeclaredInputRepeated(t *testing.T) {
	src := `{"inputs": [{"id": "known", "type": "promptString", "description": "Known key", "password": false}],
"servers": {
 "a": {"command": "/bin/x", "args": ["--k=${input:tok}", "${input:tok}"], "env": {"K": "${input:known}", "T": "${input:tok}"}},
 "b": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"X-A": "${input:tok}", "X-B": "${input:tok}:${input:known}"}}}}`
	f := Read("f.json", []byte(src), Options{})
	if len(f.Problems) != 0 {
		t.Fatalf("problems %v", f.Problems)
	}
	if len(f.Warnings) != 2 || f.Warnings[0].Field != "servers.a.args[0]" || f.Warnings[1].Field != "servers.b.headers.X-A" {
		t.Errorf("warnings %v, want one per server, at the first use", f.Warnings)
	}
	want := []Input{{ID: "tok", Password: true}, {ID: "known", Description: "Known key"}}
	for _, e := range f.Entries {
		if len(e.Inputs) != 2 || !slices.Contains(e.Inputs, want[0]) || !slices.Contains(e.Inputs, want[1]) {
			t.Errorf("%s: inputs %+v, want %+v", e.Name, e.Inputs, want)
		}
	}
	if v := fieldString(f.Entries[1], "servers.b.headers.X-B"); v != "{{secrets.tok}}:{{secrets.known}}" {
		t.Errorf("X-B = %q", v)
	}
}

// A VS Code file with no inputs list, or one holding only a pick list,
// declares no promptString input: the warning says so, not that a list
// lacks it.
func TestReadUndeclaredInputNoList(t *testing.T) {
	for _, inputs := range []string{``, `"inputs": [{"type": "pickString", "id": "p", "options": ["a"]}], `} {
		f := Read("f.json", []byte(`{`+inputs+`"servers": {"a": {"command": "/bin/x", "env": {"A": "${input:x}"}}}}`), Options{})
		if len(f.Problems) != 0 || len(f.Warnings) != 1 || !strings.Contains(f.Warnings[0].Message, "${input:x} is not declared: this file declares no promptString input; relavium will ask") {
			t.Errorf("%q: problems %v warnings %v", inputs, f.Problems, f.Warnings)
		}
	}
}

// What E240 and E242 still refuse: an undeclared ${input:…} where no
// typed secret may go (command, cwd, envFile) is refused exactly as a
// declared one is; a pick list too. (In a url it translates; config
// refuses it where it would choose the host, E216.)
func TestReadUndeclaredInputStillRefused(t *testing.T) {
	for field, code := range map[string]string{
		`"command": "/bin/${input:x}"`:                 "E240 mcpServers.a.command",
		`"command": "/bin/x", "cwd": "${input:x}"`:     "E240 mcpServers.a.cwd",
		`"command": "/bin/x", "envFile": "${input:x}"`: "E240 mcpServers.a.envFile",
	} {
		f := Read("f.json", []byte(`{"mcpServers": {"a": {`+field+`}}}`), Options{})
		var got []string
		for _, p := range f.Problems {
			got = append(got, string(p.Code)+" "+p.Field)
		}
		if strings.Join(got, ",") != code || len(f.Warnings) != 0 || !f.Entries[0].Failed {
			t.Errorf("%s: problems %v warnings %v, want %s and no warning", field, got, f.Warnings, code)
		}
	}
}

// fieldString is the translated string at a JSON path of e ("" if none).
func fieldString(e Entry, path string) string {
	rest, ok := strings.CutPrefix(path, e.Path+".")
	if !ok {
		return ""
	}
	keys := strings.Split(rest, ".")
	var v *Value
	for _, m := range e.Fields {
		if m.Key == keys[0] {
			v = m.Value
		}
	}
	for _, k := range keys[1:] {
		if v == nil {
			return ""
		}
		m := v.Get(k)
		if m == nil {
			return ""
		}
		v = m.Value
	}
	if v == nil {
		return ""
	}
	return v.Str
}

// FuzzRead: whatever the bytes, Read never panics, every problem and
// warning is placed in the file, and an entry without a problem carries a
// transport and a name.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"claude_desktop_config.json", "claude_code.mcp.json", "vscode.mcp.json", "claude.json", "untranslatable.json"} {
		f.Add(fixtureBytes(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		name := func(w string) (string, bool) { return strings.ToLower(w), w != "" }
		r := Read("f.json", data, Options{Project: "/data/app", Name: name})
		for _, p := range append(append(authored.Problems{}, r.Problems...), r.Warnings...) {
			if p.File != "f.json" || p.Line < 1 || p.Col < 1 || p.Code == "" || p.Message == "" {
				t.Fatalf("unplaced problem %+v", p)
			}
		}
		for _, e := range r.Entries {
			if e.Failed {
				continue
			}
			keys := map[string]bool{}
			for _, m := range e.Fields {
				keys[m.Key] = true
			}
			if !keys["name"] || !keys["transport"] || e.Pos.Line < 1 {
				t.Fatalf("entry %s lacks a name or transport: %+v", e.Path, e.Fields)
			}
		}
	})
}
