package config

import (
	"strings"
	"testing"
)

// Rules about the shape of the files: syntax, keys, types, required fields,
// names, transports, values and the YAML subset. One table per rule.

func TestRuleSyntax(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: TOML and YAML syntax in one pass", fixture: "syntax", want: []want{
			{code: CodeSyntax, file: projectTOML, line: 4, col: 10, msg: "start of value"},
			{code: CodeSyntax, file: "project/.relavium/agents/broken.yaml", line: 2, col: 16, msg: "'}'"},
		}},
		{name: "TOML key defined twice", files: map[string]string{globalTOML: "theme = \"dark\"\ntheme = \"light\"\n"}, want: []want{
			{code: CodeSyntax, file: globalTOML, line: 2, col: 1, field: "theme", msg: "already defined"},
		}},
		{name: "TOML array of tables redefined as a table", files: map[string]string{globalTOML: stdioReg("a") + "[mcp_servers]\n"}, want: []want{
			{code: CodeSyntax, file: globalTOML, line: 5, col: 2, field: "mcp_servers", msg: "array of tables"},
		}},
		{name: "YAML key defined twice", files: map[string]string{agentYAML: "description: x\ndescription: y\n"}, want: []want{
			{code: CodeSyntax, file: agentYAML, line: 2, col: 1, msg: "already defined"},
		}},
		{name: "YAML not UTF-8", files: map[string]string{agentYAML: "description: \xff\xfe\n"}, want: []want{
			{code: CodeSyntax, file: agentYAML, line: 1, col: 1, msg: "UTF-8"},
		}},
	})
}

func TestRuleUnknownKey(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: both surfaces, with hints", fixture: "unknown-key", want: []want{
			{code: CodeUnknownKey, file: globalTOML, line: 1, col: 1, field: "themes", msg: `did you mean "theme"`},
			{code: CodeUnknownKey, file: globalTOML, line: 7, col: 1, field: "mcp_servers[0].comand", msg: `did you mean "command"`},
			{code: CodeUnknownKey, file: globalTOML, line: 8, col: 1, field: "mcp_servers[0].id", msg: `named with "name"`},
			{code: CodeUnknownKey, file: agentYAML, line: 2, col: 1, field: "descripton", msg: `did you mean "description"`},
			{code: CodeUnknownKey, file: agentYAML, line: 7, col: 5, field: "mcp_servers[0].name", msg: `named with "id"`},
			{code: CodeUnknownKey, file: agentYAML, line: 8, col: 5, field: "mcp_servers[0].autostart", msg: "only on a [[mcp_servers]] registration"},
		}},
		{name: "inside an inline-table registration", files: map[string]string{
			globalTOML: `mcp_servers = [{name = "a", transport = "stdio", command = "a", headers = {}}]` + "\n",
		}, want: []want{
			{code: CodeNetworkOnly, file: globalTOML, line: 1, col: 65, field: "mcp_servers[0].headers", msg: "network-only"},
		}},
		{name: "ref in a registration", files: map[string]string{globalTOML: stdioReg("a") + "ref = \"b\"\n"}, want: []want{
			{code: CodeUnknownKey, file: globalTOML, line: 5, col: 1, field: "mcp_servers[0].ref", msg: "agent file"},
		}},
		{name: "dotted key into a sub-table of a registration", files: map[string]string{globalTOML: stdioReg("a") + "extra.flag = true\n"}, want: []want{
			{code: CodeUnknownKey, file: globalTOML, line: 5, col: 1, field: "mcp_servers[0].extra"},
		}},
		{name: "every known key is accepted", files: map[string]string{
			globalTOML: "theme = \"auto\"\n" + stdioReg("a") + "args = []\nenv = {}\ntools_allowlist = [\"t\"]\nconnect_timeout_ms = 1\nautostart = true\n",
			agentYAML:  "name: a\ndescription: d\nmcp_servers:\n  - ref: a\n    tools_allowlist: [t]\n",
		}},
	})
}

func TestRuleType(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: both surfaces", fixture: "type", want: []want{
			{code: CodeType, file: globalTOML, line: 1, col: 9, field: "theme", msg: "got an integer"},
			{code: CodeType, file: globalTOML, line: 6, col: 11, field: "mcp_servers[0].command", msg: "got an array"},
			{code: CodeType, file: globalTOML, line: 7, col: 8, field: "mcp_servers[0].args"},
			{code: CodeType, file: globalTOML, line: 8, col: 13, field: "mcp_servers[0].autostart", msg: "true or false"},
			{code: CodeType, file: agentYAML, line: 2, col: 14, field: "description"},
			{code: CodeType, file: agentYAML, line: 7, col: 12, field: "mcp_servers[0].args[0]"},
			{code: CodeType, file: agentYAML, line: 8, col: 5, field: "mcp_servers[1]"},
		}},
		{name: "an array inside an array points at its own bracket", files: map[string]string{globalTOML: "[[mcp_servers]]\nname = \"a\"\ntransport = \"stdio\"\ncommand = \"/bin/true\"\nargs = [ \"ok\",\n   1, [\"n\"],\n  [ [ \"deep\" ] ], [] ]\n"}, want: []want{
			// An empty array has nothing inside to find its bracket from: it
			// points at the enclosing array.
			{code: CodeType, file: globalTOML, line: 5, col: 8, field: "mcp_servers[0].args[4]", msg: "got an array"},
			{code: CodeType, file: globalTOML, line: 6, col: 4, field: "mcp_servers[0].args[1]", msg: "got an integer"},
			{code: CodeType, file: globalTOML, line: 6, col: 7, field: "mcp_servers[0].args[2]", msg: "got an array"},
			{code: CodeType, file: globalTOML, line: 7, col: 3, field: "mcp_servers[0].args[3]", msg: "got an array"},
		}},
		{name: "mcp_servers as a single table", files: map[string]string{globalTOML: "[mcp_servers]\nname = \"a\"\n"}, want: []want{
			{code: CodeType, file: globalTOML, line: 1, col: 2, field: "mcp_servers", msg: "[[mcp_servers]]"},
		}},
		{name: "a date where a name goes", files: map[string]string{globalTOML: "[[mcp_servers]]\nname = 1979-05-27\ntransport = \"stdio\"\ncommand = \"a\"\n"}, want: []want{
			{code: CodeType, file: globalTOML, line: 2, col: 8, field: "mcp_servers[0].name", msg: "date/time"},
		}},
		{name: "agent mcp_servers as a mapping", files: map[string]string{agentYAML: "mcp_servers: {id: a}\n"}, want: []want{
			{code: CodeType, file: agentYAML, line: 1, col: 14, field: "mcp_servers"},
		}},
		{name: "agent file that is a list", files: map[string]string{agentYAML: "- id: a\n"}, want: []want{
			{code: CodeType, file: agentYAML, line: 1, col: 1, field: ""},
		}},
		{name: "a mistyped opt-in is one problem, not two", files: map[string]string{
			globalTOML: "[[mcp_servers]]\nname = \"a\"\ntransport = \"http\"\nurl = \"http://127.0.0.1:4000/mcp\"\nallow_local_endpoint = \"true\"\n",
		}, want: []want{
			{code: CodeType, file: globalTOML, line: 5, col: 24, field: "mcp_servers[0].allow_local_endpoint", msg: "true or false"},
		}},
		{name: "env value that is a number", files: map[string]string{agentYAML: "mcp_servers:\n  - id: a\n    transport: stdio\n    command: a\n    env:\n      PORT: 8080\n"}, want: []want{
			{code: CodeType, file: agentYAML, line: 6, col: 13, field: "mcp_servers[0].env.PORT", msg: "quote it"},
		}},
	})
}

func TestRuleRequired(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: both surfaces", fixture: "required", want: []want{
			{code: CodeRequired, file: globalTOML, line: 1, col: 3, field: "mcp_servers[0].name"},
			{code: CodeRequired, file: globalTOML, line: 1, col: 3, field: "mcp_servers[0].command", msg: "program to spawn"},
			{code: CodeRequired, file: globalTOML, line: 4, col: 3, field: "mcp_servers[1].transport", msg: "stdio, http, websocket"},
			{code: CodeRequired, file: globalTOML, line: 8, col: 3, field: "mcp_servers[2].url"},
			{code: CodeRequired, file: agentYAML, line: 2, col: 5, field: "mcp_servers[0].id"},
			{code: CodeRequired, file: agentYAML, line: 4, col: 10, field: "mcp_servers[1].ref"},
			{code: CodeRequired, file: agentYAML, line: 5, col: 5, field: "mcp_servers[2].url"},
		}},
		{name: "empty name", files: map[string]string{globalTOML: "[[mcp_servers]]\nname = \"\"\ntransport = \"stdio\"\ncommand = \"a\"\n"}, want: []want{
			{code: CodeRequired, file: globalTOML, line: 2, col: 8, field: "mcp_servers[0].name", msg: "is empty"},
		}},
		{name: "empty agent file", files: map[string]string{agentYAML: ""}, want: []want{
			{code: CodeRequired, file: agentYAML, line: 1, col: 1, msg: "empty"},
		}},
		{name: "agent file with only a comment", files: map[string]string{agentYAML: "# nothing yet\n"}, want: []want{
			{code: CodeRequired, file: agentYAML, line: 1, col: 1, msg: "empty"},
		}},
		{name: "null command", files: map[string]string{agentYAML: "mcp_servers:\n  - id: a\n    transport: stdio\n    command:\n"}, want: []want{
			{code: CodeRequired, file: agentYAML, line: 4, col: 5, field: "mcp_servers[0].command"},
		}},
	})
}

func TestRuleName(t *testing.T) {
	long := strings.Repeat("a", maxServerNameLen)
	runRule(t, []ruleCase{
		{name: "fixture: both surfaces", fixture: "name", want: []want{
			{code: CodeName, file: globalTOML, line: 2, col: 8, field: "mcp_servers[0].name", msg: `try "my-server"`},
			{code: CodeName, file: agentYAML, line: 2, col: 9, field: "mcp_servers[0].id", msg: `try "bad"`},
			{code: CodeName, file: agentYAML, line: 5, col: 10, field: "mcp_servers[1].ref"},
		}},
		{name: "48 characters is the limit", files: map[string]string{globalTOML: stdioReg(long)}},
		{name: "49 characters is too long", files: map[string]string{globalTOML: stdioReg(long + "a")}, want: []want{
			{code: CodeName, file: globalTOML, line: 2, col: 8, field: "mcp_servers[0].name"},
		}},
		{name: "digits and inner hyphens", files: map[string]string{globalTOML: stdioReg("0day") + stdioReg("my-server-2")}},
		{name: "underscore would make mcp_<server>_<tool> ambiguous", files: map[string]string{globalTOML: stdioReg("a_b")}, want: []want{
			{code: CodeName, file: globalTOML, line: 2, col: 8, field: "mcp_servers[0].name", msg: `try "a-b"`},
		}},
		{name: "agent name outside the charset", files: map[string]string{agentYAML: "name: Bad Name\n"}, want: []want{
			{code: CodeName, file: agentYAML, line: 1, col: 7, field: "name"},
		}},
	})
}

func TestRuleTransport(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: both surfaces", fixture: "transport", want: []want{
			{code: CodeTransport, file: globalTOML, line: 3, col: 13, field: "mcp_servers[0].transport", msg: `did you mean "http"`},
			{code: CodeTransport, file: agentYAML, line: 3, col: 16, field: "mcp_servers[0].transport", msg: `did you mean "websocket"`},
		}},
		{name: "ws", files: map[string]string{globalTOML: "[[mcp_servers]]\nname = \"a\"\ntransport = \"ws\"\nurl = \"ws://localhost:1\"\nallow_local_endpoint = true\n"}, want: []want{
			{code: CodeTransport, file: globalTOML, line: 3, col: 13, field: "mcp_servers[0].transport", msg: `"websocket"`},
		}},
		{name: "the vocabulary", files: map[string]string{globalTOML: stdioReg("a") +
			"[[mcp_servers]]\nname = \"b\"\ntransport = \"http\"\nurl = \"https://example.com/mcp\"\n" +
			"[[mcp_servers]]\nname = \"c\"\ntransport = \"websocket\"\nurl = \"ws://127.0.0.1:9000\"\nallow_local_endpoint = true\n",
		}},
	})
}

func TestRuleValue(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: command lines, blanks, NUL", fixture: "value", want: []want{
			{code: CodeValue, file: globalTOML, line: 4, col: 11, field: "mcp_servers[0].command", msg: `set command to "node" and put ["server.js"] in args`},
			{code: CodeValue, file: globalTOML, line: 9, col: 11, field: "mcp_servers[1].command", msg: "white space"},
			{code: CodeValue, file: globalTOML, line: 10, col: 15, field: "mcp_servers[1].args[1]", msg: "NUL"},
			{code: CodeValue, file: agentYAML, line: 4, col: 14, field: "mcp_servers[0].command", msg: `"npx"`},
		}},
		{name: "a path with a blank is one program", files: map[string]string{globalTOML: "[[mcp_servers]]\nname = \"a\"\ntransport = \"stdio\"\ncommand = \"/opt/My App/server\"\n"}},
	})
}

// TestRuleValueYAMLEscapeHasNoText: a double-quoted YAML escape that names no
// Unicode scalar value — a lone UTF-16 surrogate (\udc00, \U0000D800), a
// code point past U+10FFFF, non-hex digits — has no UTF-8 form. The YAML
// library would silently put U+FFFD (or garbage) in its place, so the
// argument digested and spawned would not be the one authored; the digest's
// canonical JSON refuses a lone surrogate outright. TOML refuses the same escapes as syntax.
func TestRuleValueYAMLEscapeHasNoText(t *testing.T) {
	entry := func(arg string) map[string]string {
		return map[string]string{agentYAML: "mcp_servers:\n  - id: a\n    transport: stdio\n    command: /bin/true\n    args: [\"ok\", \"" + arg + "\"]\n"}
	}
	field := "mcp_servers[0].args[1]"
	runRule(t, []ruleCase{
		{name: "lone low surrogate", files: entry(`x\udc00`), want: []want{{code: CodeValue, file: agentYAML, line: 5, col: 18, field: field, msg: `\udc00`}}},
		{name: "surrogate through \\U", files: entry(`\U0000D800`), want: []want{{code: CodeValue, file: agentYAML, line: 5, col: 18, field: field, msg: `\U0000D800`}}},
		{name: "past U+10FFFF", files: entry(`\U00110000`), want: []want{{code: CodeValue, file: agentYAML, line: 5, col: 18, field: field, msg: `\U00110000`}}},
		{name: "not hex", files: entry(`\uZZZZ`), want: []want{{code: CodeValue, file: agentYAML, line: 5, col: 18, field: field, msg: `\uZZZZ`}}},
		{name: "env value too", files: map[string]string{agentYAML: "mcp_servers:\n  - id: a\n    transport: stdio\n    command: /bin/true\n    env: {A: \"\\udfff\"}\n"},
			want: []want{{code: CodeValue, file: agentYAML, line: 5, col: 14, field: "mcp_servers[0].env.A", msg: "surrogate"}}},
		{name: "a surrogate pair, \\U, \\x and the named escapes are text", files: entry(`\ud83d\ude00 \U0001F600 \x41 \u00e9 \\udc00 \N \_ \t`)},
	})
}

func TestRuleYAMLFeature(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: alias, tag, merge key, key type, two documents", fixture: "yaml-feature", want: []want{
			{code: CodeYAMLFeature, file: "project/.relavium/agents/alias.yaml", line: 6, col: 5, field: "mcp_servers[1]", msg: "aliases"},
			{code: CodeYAMLFeature, file: "project/.relavium/agents/alias.yaml", line: 8, col: 16, field: "mcp_servers[2].transport", msg: "tags"},
			{code: CodeYAMLFeature, file: "project/.relavium/agents/alias.yaml", line: 10, col: 5, field: "mcp_servers[3].<<", msg: "merge keys"},
			{code: CodeYAMLFeature, file: "project/.relavium/agents/int-key.yaml", line: 2, col: 1, field: "1", msg: "plain string"},
			{code: CodeYAMLFeature, file: "project/.relavium/agents/two-docs.yaml", line: 2, col: 1, msg: "one YAML document"},
		}},
		{name: "an anchor alone is harmless", files: map[string]string{agentYAML: "mcp_servers:\n  - &x\n    id: a\n    transport: stdio\n    command: a\n"}},
	})
}

func TestRuleTheme(t *testing.T) {
	valid := map[string]string{}
	for i, th := range Themes() {
		valid[[]string{globalTOML, projectTOML}[i%2]] = "theme = \"" + th + "\"\n"
	}
	runRule(t, []ruleCase{
		{name: "fixture: both config files", fixture: "theme", want: []want{
			{code: CodeTheme, file: globalTOML, line: 1, col: 9, field: "theme", msg: `did you mean "dark"`},
			{code: CodeTheme, file: projectTOML, line: 1, col: 9, field: "theme", msg: "high-contrast"},
		}},
		{name: "empty theme", files: map[string]string{globalTOML: "theme = \"\"\n"}, want: []want{
			{code: CodeTheme, file: globalTOML, line: 1, col: 9, field: "theme"},
		}},
		{name: "the vocabulary", files: valid},
	})
}

func TestRuleUnreadable(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: config.toml is a directory", fixture: "unreadable", want: []want{
			{code: CodeUnreadable, file: projectTOML, line: 1, col: 1, msg: "directory"},
		}},
		{name: "over 1 MiB", files: map[string]string{globalTOML: "# " + strings.Repeat("x", maxConfigFileBytes) + "\n"}, want: []want{
			{code: CodeUnreadable, file: globalTOML, line: 1, col: 1, msg: "larger"},
		}},
		{name: "agents is a file", files: map[string]string{"project/.relavium/agents": "not a folder\n"}, want: []want{
			{code: CodeUnreadable, file: "project/.relavium/agents", line: 1, col: 1, msg: "agents folder"},
		}},
	})
}
