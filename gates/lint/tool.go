package lint

import (
	"fmt"
	"regexp"
	"strings"
)

// wellKnown are tool names models and clients know by name: a server that
// offers one may be picked in place of the tool the person meant.
var wellKnown = map[string]bool{
	"read_file": true, "write_file": true, "edit_file": true, "delete_file": true, "move_file": true, "list_directory": true,
	"list_files": true, "search_files": true, "create_directory": true, "read_multiple_files": true, "bash": true, "shell": true,
	"run_shell_command": true, "execute_command": true, "run_command": true, "exec": true, "terminal": true, "run_terminal_cmd": true,
	"python": true, "fetch": true, "web_fetch": true, "web_search": true, "search": true, "browser": true, "computer": true,
	"str_replace_editor": true, "text_editor": true, "git_commit": true, "git_push": true, "send_email": true, "http_request": true,
}

// families group the well-known names by what they touch, each with the
// words a server of that kind is named by or names its tools with.
var families = []struct {
	words map[string]bool
	names map[string]bool
}{
	{words: setOf("file", "files", "filesystem", "fs", "directory", "directories", "dir", "folder", "path", "editor", "edit"),
		names: setOf("read_file", "write_file", "edit_file", "delete_file", "move_file", "list_directory", "list_files", "search_files",
			"create_directory", "read_multiple_files", "str_replace_editor", "text_editor")},
	{words: setOf("shell", "bash", "terminal", "command", "commands", "cmd", "exec", "execute", "process", "python", "computer"),
		names: setOf("bash", "shell", "run_shell_command", "execute_command", "run_command", "exec", "terminal", "run_terminal_cmd", "python", "computer")},
	{words: setOf("fetch", "web", "search", "browser", "browse", "url", "http", "page", "crawl", "scrape", "request"),
		names: setOf("fetch", "web_fetch", "web_search", "search", "browser", "http_request")},
	{words: setOf("git", "commit", "branch", "repo", "repository"), names: setOf("git_commit", "git_push")},
	{words: setOf("mail", "email", "gmail", "smtp", "inbox"), names: setOf("send_email")},
}

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// owns reports whether the server being checked owns the well-known name:
// it is a server of that name's kind, not one borrowing a name a model
// picks by habit. It owns it when its declared name says that kind
// ("filesystem", "fetch"), or when at least two of its tools and at least
// half of them are named with that kind's words (server-filesystem's
// read_file beside list_directory, directory_tree, get_file_info …). A
// notes server offering read_file among its notes tools does not.
func (c *checker) owns(name string) bool {
	for _, f := range families {
		if !f.names[name] {
			continue
		}
		for _, w := range nameTokens(strings.ToLower(c.server)) {
			if f.words[w] {
				return true
			}
		}
		kin, all := 0, 0
		for _, t := range c.otherTools {
			if t.server != c.server {
				continue
			}
			all++
			for _, w := range nameTokens(strings.ToLower(t.name)) {
				if f.words[w] {
					kin++
					break
				}
			}
		}
		return kin >= 2 && 2*kin >= all
	}
	return false
}

// destructiveWord: a name token or description word that changes things.
var destructiveWord = regexp.MustCompile(`(?i)^(delete|deletes|remove|removes|rm|drop|drops|destroy|destroys|wipe|wipes|erase|erases|purge|purges|truncate|kill|terminate|overwrite|overwrites|write|writes|update|updates|modify|modifies|edit|edits|create|creates|insert|inserts|send|sends|post|upload|uploads|push|pushes|move|moves|rename|renames|exec|execute|executes|format|reset|revoke|revokes)$`)

// changeVerb: a description's opening verb that says the tool changes or
// sends away something (narrower than a name's tokens: "Sends the message
// back" is an echo).
var changeVerb = regexp.MustCompile(`(?i)^(deletes|removes|destroys|wipes|erases|purges|truncates|overwrites|uploads|drops|kills|terminates|revokes|formats)$`)

// eraseWord: a name token that removes things (destructiveHint false on it
// is a contradiction).
var eraseWord = regexp.MustCompile(`(?i)^(delete|remove|rm|drop|destroy|wipe|erase|purge|truncate|kill|terminate|overwrite|format|reset|revoke)$`)

var secretValue = regexp.MustCompile(`(` +
	`\bsk-(ant-|proj-)?[A-Za-z0-9_-]{20,}|\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{20,}|\bxox[abprs]-[A-Za-z0-9-]{10,}` +
	`|\bAKIA[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_-]{35}\b|-----BEGIN [A-Z ]*PRIVATE KEY-----|\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.` +
	`|(?i:\bbearer\s+[A-Za-z0-9._~+/-]{20,})` +
	`)`)

var credentialName = regexp.MustCompile(`(?i)(password|passwd|secret|token|api[_-]?key|apikey|credential|private[_-]?key|access[_-]?key)`)

// nameTokens splits a tool name into words: snake, kebab, dots, camel.
func nameTokens(name string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '/' || r == ' ':
			flush()
			prevLower = false
			continue
		case r >= 'A' && r <= 'Z' && prevLower:
			flush()
		}
		cur.WriteRune(r)
		prevLower = r >= 'a' && r <= 'z'
	}
	flush()
	return out
}

// checkTool runs the tool rules (names, annotations, schema) over def.
func (c *checker) checkTool(name string, def map[string]any, add func(rule, ptr, msg string)) {
	lower := strings.ToLower(name)
	for _, other := range c.otherTools {
		if other.server != c.server && strings.ToLower(other.name) == lower {
			add(RuleShadowServer, "/name", fmt.Sprintf("server %s also offers a tool named %s", excerpt(other.server), excerpt(other.name)))
			break
		}
	}
	if wellKnown[lower] && !c.owns(lower) {
		add(RuleShadowKnown, "/name", fmt.Sprintf("%s is a well-known tool name", excerpt(name)))
	}
	c.checkAnnotations(name, def, add)
	c.checkSchema(def, add)
}

func (c *checker) checkAnnotations(name string, def map[string]any, add func(rule, ptr, msg string)) {
	ann, _ := def["annotations"].(map[string]any)
	if ann == nil {
		return
	}
	tokens := nameTokens(name)
	desc, _ := def["description"].(string)
	if ro, _ := ann["readOnlyHint"].(bool); ro {
		for _, w := range tokens {
			if destructiveWord.MatchString(w) {
				add(RuleAnnotation, "/annotations/readOnlyHint", fmt.Sprintf("claims read-only, but its name says %s", excerpt(w)))
				return
			}
		}
		for i, w := range strings.Fields(desc) {
			if i >= 12 {
				break // the description's opening words say what the tool does
			}
			if w = strings.Trim(w, ".,;:!?()\"'"); changeVerb.MatchString(w) {
				add(RuleAnnotation, "/annotations/readOnlyHint", fmt.Sprintf("claims read-only, but its description says %s", excerpt(w)))
				return
			}
		}
	}
	if d, ok := ann["destructiveHint"].(bool); ok && !d {
		for _, w := range tokens {
			if eraseWord.MatchString(w) {
				add(RuleAnnotation, "/annotations/destructiveHint", fmt.Sprintf("claims not to be destructive, but its name says %s", excerpt(w)))
				return
			}
		}
	}
}

func (c *checker) checkSchema(def map[string]any, add func(rule, ptr, msg string)) {
	in, ok := def["inputSchema"].(map[string]any)
	switch {
	case !ok:
		add(RuleOpenSchema, "/inputSchema", "is missing or not an object schema: any arguments are accepted")
	default:
		props, _ := in["properties"].(map[string]any)
		ap, hasAP := in["additionalProperties"]
		open := hasAP && (ap == true || isEmptyObject(ap))
		if len(props) == 0 && (open || in["type"] == nil) {
			add(RuleOpenSchema, "/inputSchema", "declares no properties and accepts any others")
		}
	}
	for _, key := range []string{"inputSchema", "outputSchema"} {
		if s, ok := def[key]; ok {
			c.walkSecrets(s, "/"+key, "", 0, add)
		}
	}
}

func isEmptyObject(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 0
}

// walkSecrets finds credential-looking defaults, examples, consts and
// enums in a schema, and any default of a credential-named property.
func (c *checker) walkSecrets(v any, ptr, prop string, depth int, add func(rule, ptr, msg string)) {
	if depth > maxDepth {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			val := x[k]
			p := ptr + "/" + pointerToken(k)
			switch k {
			case "default", "examples", "const", "enum", "example":
				for _, s := range stringsIn(val) {
					switch {
					case secretValue.MatchString(s):
						add(RuleSecretValue, p, "looks like a credential: "+excerpt(mask(s)))
					case k == "default" && s != "" && credentialName.MatchString(prop):
						add(RuleSecretValue, p, fmt.Sprintf("is a default for credential-named property %s", excerpt(prop)))
					}
				}
				continue
			case "properties":
				if props, ok := val.(map[string]any); ok {
					for _, name := range sortedKeys(props) {
						c.walkSecrets(props[name], p+"/"+pointerToken(name), name, depth+1, add)
					}
					continue
				}
			}
			c.walkSecrets(val, p, prop, depth+1, add)
		}
	case []any:
		for i, e := range x {
			c.walkSecrets(e, fmt.Sprintf("%s/%d", ptr, i), prop, depth+1, add)
		}
	}
}

func stringsIn(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// mask keeps the start of a credential-looking value and hides the rest.
func mask(s string) string {
	if len(s) <= 8 {
		return "…"
	}
	return s[:6] + "…"
}
