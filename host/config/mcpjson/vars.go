package mcpjson

import (
	"fmt"
	"slices"
	"strings"
)

// env translates an env object. Each value is text in which every
// reference, the whole value or inside text, becomes relavium's own
// (textRefs). ${workspaceFolder} anywhere is the project directory.
func (t *translator) env(m *Member, path string, e *Entry) Member {
	out := &Value{Kind: Object, Pos: m.Value.Pos}
	if m.Value.Kind != Object {
		t.file.Problems.Add(CodeType, m.Value.Pos, path, "must be an object of NAME: \"value\", got %s", m.Value.Kind)
		return Member{Key: "env", KeyPos: m.KeyPos, Value: out}
	}
	for _, kv := range m.Value.Members {
		p := path + jsonKey(kv.Key)
		var text string
		switch kv.Value.Kind {
		case String:
			text = kv.Value.Str
		case Number:
			text = kv.Value.Str // VS Code passes a number as its text
		case Bool:
			text = fmt.Sprint(kv.Value.Bool)
		case Null:
			t.file.Problems.Add(CodeUnsupported, kv.Value.Pos, p, "null (remove the variable) has no counterpart: a relavium server inherits only HOME, PATH, USER and a few others, so leave the entry out")
			continue
		default:
			t.file.Problems.Add(CodeType, kv.Value.Pos, p, "must be a string, got %s", kv.Value.Kind)
			continue
		}
		v, ok := t.envValue(kv.Key, t.workspace(text), kv.Value, p, e)
		if ok {
			out.Members = append(out.Members, Member{Key: kv.Key, KeyPos: kv.KeyPos, Value: &Value{Kind: String, Str: v, Pos: kv.Value.Pos}})
		}
	}
	return Member{Key: "env", KeyPos: m.KeyPos, Value: out}
}

func (t *translator) envValue(name, text string, at *Value, path string, e *Entry) (string, bool) {
	return t.textRefs(name, text, at, path, e)
}

// input turns ${input:id} into the secret relavium asks for. An id the
// file does not declare (an .mcp.json has no inputs list at all; a VS Code
// file may name an input it forgot to declare) is asked for exactly as a
// declared promptString with password true: the value's natural source is
// the person, and only the prompt's description is lost. A warning says
// so; nothing is sent until the person types it (or sets the secret
// headless), and the typing binds it as any typed input's.
func (t *translator) input(id string, at *Value, path string, e *Entry) (string, bool) {
	in, ok := t.inputByID[id]
	switch {
	case !ok && contains(t.inputKinds, id):
		t.file.Problems.Add(CodeInput, at.Pos, path, "input %q is not a promptString: relavium asks for a typed secret only (a pick list does not translate)", id)
		return "", false
	case !secretName(id):
		t.file.Problems.Add(CodeInput, at.Pos, path, "input id %q cannot name a relavium secret (letters, digits, '_', '-', '.')", id)
		return "", false
	case !ok:
		in = Input{ID: id, Password: true}
		if !containsInput(e.Inputs, id) {
			t.file.Warnings.Add(CodeInput, at.Pos, path, "%s; relavium will ask for it as a hidden value, the secret %s (typed in the workbench; headless, RELAVIUM_SECRET_… or secrets.toml), and sends nothing without it", undeclared(id, t.inputByID), id)
		}
	}
	if !containsInput(e.Inputs, id) {
		e.Inputs = append(e.Inputs, in)
	}
	return "{{secrets." + id + "}}", true
}

// undeclared says why ${input:id} has no declaration in this file.
func undeclared(id string, declared map[string]Input) string {
	if declared == nil {
		return fmt.Sprintf("${input:%s} is not declared: only a VS Code file (servers and inputs) declares inputs", id)
	}
	if len(declared) == 0 {
		return fmt.Sprintf("${input:%s} is not declared: this file declares no promptString input", id)
	}
	ids := make([]string, 0, len(declared))
	for k := range declared {
		ids = append(ids, k)
	}
	slices.Sort(ids)
	more := ""
	if len(ids) > 5 {
		ids, more = ids[:5], ", …"
	}
	return fmt.Sprintf("${input:%s} names no input of this file's inputs list (it declares %s%s)", id, quoteWords(ids), more)
}

type reference struct {
	name       string // the environment variable
	def        string
	hasDefault bool
	input      string // ${input:id}
}

// parseRef reads a value that is exactly one reference.
func parseRef(s string) (reference, bool) {
	if !strings.HasPrefix(s, "${") || !strings.HasSuffix(s, "}") {
		return reference{}, false
	}
	body := s[2 : len(s)-1]
	if strings.ContainsAny(body, "{}$") {
		return reference{}, false // nested, or two references
	}
	if id, ok := strings.CutPrefix(body, "input:"); ok {
		return reference{input: id}, id != ""
	}
	if body == "userHome" { // VS Code's own variable: the person's home
		return reference{name: "HOME"}, true
	}
	if v, ok := strings.CutPrefix(body, "env:"); ok {
		return reference{name: v}, portableName(v)
	}
	name, def, hasDefault := strings.Cut(body, ":-")
	return reference{name: name, def: def, hasDefault: hasDefault}, portableName(name)
}

// portableName is [A-Za-z_][A-Za-z0-9_]*.
func portableName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' && i > 0) {
			return false
		}
	}
	return true
}

// secretName is what {{secrets.NAME}} accepts.
func secretName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return s != ""
}

// SecretLike: a variable name that says it holds a credential.
func SecretLike(name string) bool {
	u := strings.ToUpper(name)
	for _, w := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "CREDENTIAL", "PRIVATE", "AUTH"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return strings.HasSuffix(u, "_KEY") || u == "KEY"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsInput(list []Input, id string) bool {
	for _, x := range list {
		if x.ID == id {
			return true
		}
	}
	return false
}
