package config

import (
	"strings"
	"testing"
)

// Rules about server declarations: ref vs inline, field placement per
// transport (symmetric on both surfaces), deadlines, allowlists, names.

func TestRuleRefExcludesInline(t *testing.T) {
	var fx []want
	for i, f := range []string{"id", "transport", "command", "args", "env", "url", "allow_local_endpoint", "connect_timeout_ms"} {
		fx = append(fx, want{code: CodeRefExcludes, file: agentYAML, line: 3 + i, col: 5, field: "mcp_servers[0]." + f, msg: "only tools_allowlist"})
	}
	runRule(t, []ruleCase{
		{name: "fixture: every inline field beside ref", fixture: "ref-excludes-inline", want: fx},
		{name: "ref with only tools_allowlist", files: map[string]string{
			globalTOML: stdioReg("fs"),
			agentYAML:  "mcp_servers:\n  - ref: fs\n    tools_allowlist: [read_file]\n",
		}},
		{name: "flow style", files: map[string]string{
			globalTOML: stdioReg("fs"),
			agentYAML:  "mcp_servers: [{ref: fs, url: 'https://example.com'}]\n",
		}, want: []want{
			{code: CodeRefExcludes, file: agentYAML, line: 1, col: 25, field: "mcp_servers[0].url"},
		}},
	})
}

func TestRuleStdioOnlyField(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: command, args, env on http and websocket", fixture: "stdio-only-field", want: []want{
			{code: CodeStdioOnly, file: globalTOML, line: 5, col: 1, field: "mcp_servers[0].command", msg: "stdio-only"},
			{code: CodeStdioOnly, file: globalTOML, line: 6, col: 1, field: "mcp_servers[0].args", msg: "stdio-only"},
			{code: CodeStdioOnly, file: globalTOML, line: 7, col: 1, field: "mcp_servers[0].env", msg: "no process to inject into"},
			{code: CodeStdioOnly, file: agentYAML, line: 6, col: 5, field: "mcp_servers[0].command"},
			{code: CodeStdioOnly, file: agentYAML, line: 7, col: 5, field: "mcp_servers[0].args"},
			{code: CodeStdioOnly, file: agentYAML, line: 8, col: 5, field: "mcp_servers[0].env", msg: "no process to inject into"},
		}},
		{name: "env on the sse alias", files: map[string]string{
			globalTOML: "[[mcp_servers]]\nname = \"a\"\ntransport = \"sse\"\nurl = \"https://example.com/sse\"\n[mcp_servers.env]\nA = \"b\"\n",
		}, want: []want{
			{code: CodeStdioOnly, file: globalTOML, line: 5, col: 14, field: "mcp_servers[0].env", msg: `transport "sse"`},
		}, warnings: []want{
			{code: CodeSSEDeprecated, file: globalTOML, line: 3, col: 13, field: "mcp_servers[0].transport"},
		}},
		{name: "an empty env is still refused", files: map[string]string{
			agentYAML: "mcp_servers:\n  - id: a\n    transport: http\n    url: https://example.com/mcp\n    env: {}\n",
		}, want: []want{
			{code: CodeStdioOnly, file: agentYAML, line: 5, col: 5, field: "mcp_servers[0].env"},
		}},
	})
}

func TestRuleNetworkOnlyField(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: url and allow_local_endpoint on stdio", fixture: "network-only-field", want: []want{
			{code: CodeNetworkOnly, file: globalTOML, line: 5, col: 1, field: "mcp_servers[0].url", msg: "network-only"},
			{code: CodeNetworkOnly, file: globalTOML, line: 6, col: 1, field: "mcp_servers[0].allow_local_endpoint"},
			{code: CodeNetworkOnly, file: agentYAML, line: 5, col: 5, field: "mcp_servers[0].url"},
			{code: CodeNetworkOnly, file: agentYAML, line: 6, col: 5, field: "mcp_servers[0].allow_local_endpoint"},
		}},
	})
}

func TestRuleConnectTimeout(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: zero, over, text, negative, fraction; 600000 accepted", fixture: "connect-timeout", want: []want{
			{code: CodeConnectTimeout, file: globalTOML, line: 5, col: 22, field: "mcp_servers[0].connect_timeout_ms", msg: "positive"},
			{code: CodeConnectTimeout, file: globalTOML, line: 11, col: 22, field: "mcp_servers[1].connect_timeout_ms", msg: "at most 600000"},
			{code: CodeConnectTimeout, file: globalTOML, line: 17, col: 22, field: "mcp_servers[2].connect_timeout_ms", msg: "got a string"},
			{code: CodeConnectTimeout, file: agentYAML, line: 5, col: 25, field: "mcp_servers[0].connect_timeout_ms", msg: "got -5"},
			{code: CodeConnectTimeout, file: agentYAML, line: 9, col: 25, field: "mcp_servers[1].connect_timeout_ms", msg: "1.5"},
		}},
		{name: "beyond int64", files: map[string]string{globalTOML: stdioReg("a") + "connect_timeout_ms = 99999999999999999999\n"}, want: []want{
			{code: CodeSyntax, file: globalTOML, line: 5, col: 22},
		}},
		{name: "hex is an integer too", files: map[string]string{globalTOML: stdioReg("a") + "connect_timeout_ms = 0x3e8\n"}},
	})
}

func TestRuleToolsAllowlist(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: empty, duplicate, blank, non-string, widening, not a list", fixture: "tools-allowlist", want: []want{
			{code: CodeToolsAllowlist, file: globalTOML, line: 5, col: 19, field: "mcp_servers[0].tools_allowlist", msg: "admit no tool"},
			{code: CodeToolsAllowlist, file: globalTOML, line: 11, col: 28, field: "mcp_servers[1].tools_allowlist[1]", msg: "twice", related: globalTOML + ":11:20"},
			{code: CodeToolsAllowlist, file: globalTOML, line: 11, col: 36, field: "mcp_servers[1].tools_allowlist[2]", msg: "empty"},
			{code: CodeToolsAllowlist, file: globalTOML, line: 11, col: 40, field: "mcp_servers[1].tools_allowlist[3]", msg: "white space"},
			{code: CodeToolsAllowlist, file: globalTOML, line: 11, col: 53, field: "mcp_servers[1].tools_allowlist[4]", msg: "got an integer"},
			{code: CodeToolsAllowlist, file: agentYAML, line: 3, col: 34, field: "mcp_servers[0].tools_allowlist[1]", msg: "only narrow", related: globalTOML + ":13:3"},
			{code: CodeToolsAllowlist, file: agentYAML, line: 7, col: 22, field: "mcp_servers[1].tools_allowlist", msg: "array"},
		}},
	})
}

func TestRuleDuplicateNameWithinFile(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture", fixture: "duplicate-name-within-file", want: []want{
			{code: CodeDuplicateName, file: globalTOML, line: 7, col: 8, field: "mcp_servers[1].name", msg: "earlier in this file", related: globalTOML + ":2:8"},
		}},
		{name: "names compare case-insensitively", files: map[string]string{projectTOML: stdioReg("github") + stdioReg("GitHub")}, want: []want{
			{code: CodeName, file: projectTOML, line: 6, col: 8, field: "mcp_servers[1].name"},
			{code: CodeDuplicateName, file: projectTOML, line: 6, col: 8, field: "mcp_servers[1].name", related: projectTOML + ":2:8"},
		}},
	})
}

func TestRuleDuplicateNameAcrossFiles(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: a project config must not take over a global name", fixture: "duplicate-name-across-files", want: []want{
			{code: CodeDuplicateName, file: projectTOML, line: 3, col: 8, field: "mcp_servers[0].name", msg: "other config file", related: globalTOML + ":2:8"},
		}},
		{name: "even when both entries are otherwise broken", files: map[string]string{
			globalTOML:  "[[mcp_servers]]\nname = \"x\"\n",
			projectTOML: "[[mcp_servers]]\nname = \"x\"\n",
		}, want: []want{
			{code: CodeRequired, file: globalTOML, line: 1, col: 3, field: "mcp_servers[0].transport"},
			{code: CodeRequired, file: projectTOML, line: 1, col: 3, field: "mcp_servers[0].transport"},
			{code: CodeDuplicateName, file: projectTOML, line: 2, col: 8, field: "mcp_servers[0].name", related: globalTOML + ":2:8"},
		}},
	})
}

func TestRuleDuplicateNameWithinAgent(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: a ref and an inline id", fixture: "duplicate-name-within-agent", want: []want{
			{code: CodeDuplicateName, file: agentYAML, line: 3, col: 9, field: "mcp_servers[1].id", msg: "twice in this agent", related: agentYAML + ":2:10"},
		}},
		{name: "two inline entries", files: map[string]string{
			agentYAML: "mcp_servers:\n  - {id: a, transport: stdio, command: a}\n  - {id: a, transport: stdio, command: b}\n",
		}, want: []want{
			{code: CodeDuplicateName, file: agentYAML, line: 3, col: 10, field: "mcp_servers[1].id", related: agentYAML + ":2:10"},
		}},
		{name: "an inline id may reuse a registration name the agent does not ref", files: map[string]string{
			globalTOML: stdioReg("fs"),
			agentYAML:  "mcp_servers:\n  - {id: fs, transport: stdio, command: ./my-fs}\n",
		}},
	})
}

func TestRuleUnknownRef(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: a typo and an absent name", fixture: "unknown-ref", want: []want{
			{code: CodeUnknownRef, file: agentYAML, line: 2, col: 10, field: "mcp_servers[0].ref", msg: `did you mean "github"`},
			{code: CodeUnknownRef, file: agentYAML, line: 3, col: 10, field: "mcp_servers[1].ref", msg: "registered: github"},
		}},
		{name: "a project registration resolves", files: map[string]string{
			projectTOML: stdioReg("local"),
			agentYAML:   "mcp_servers:\n  - ref: local\n",
		}},
		// config validate reports every problem at once: a ref entry with
		// another mistake still says when its name matches no registration.
		{name: "an unknown ref beside another mistake is still reported", files: map[string]string{
			globalTOML: stdioReg("github"),
			agentYAML:  "mcp_servers:\n  - ref: githb\n    transport: stdio\n    tools_allowlist: [a, a]\n",
		}, want: []want{
			{code: CodeUnknownRef, file: agentYAML, line: 2, col: 10, field: "mcp_servers[0].ref", msg: `did you mean "github"`},
			{code: CodeRefExcludes, file: agentYAML, line: 3, col: 5, field: "mcp_servers[0].transport"},
			{code: CodeToolsAllowlist, file: agentYAML, line: 4, col: 26, field: "mcp_servers[0].tools_allowlist[1]"},
		}},
		{name: "a ref to a broken registration reports the registration only", files: map[string]string{
			globalTOML: "[[mcp_servers]]\nname = \"gh\"\ntransport = \"stdio\"\n",
			agentYAML:  "mcp_servers:\n  - ref: gh\n",
		}, want: []want{
			{code: CodeRequired, file: globalTOML, line: 1, col: 3, field: "mcp_servers[0].command"},
		}},
	})
}

func TestRuleAgentName(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: name differs from the file", fixture: "agent-name", want: []want{
			{code: CodeAgentName, file: "project/.relavium/agents/reviewer.yaml", line: 1, col: 7, field: "name", msg: "rename the file"},
		}},
		{name: "name equal to the file", files: map[string]string{agentYAML: "name: a\n"}},
		{name: "a .yml file is never read", files: map[string]string{"project/.relavium/agents/b.yml": "name: b\n"}, want: []want{
			{code: CodeAgentName, file: "project/.relavium/agents/b.yml", line: 1, col: 1, msg: "rename it to b.yaml"},
		}},
	})
}

func TestRuleSSEDeprecated(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: a warning on both surfaces, never an error", fixture: "sse-deprecated", warnings: []want{
			{code: CodeSSEDeprecated, file: globalTOML, line: 3, col: 13, field: "mcp_servers[0].transport", msg: `prefer "http"`},
			{code: CodeSSEDeprecated, file: agentYAML, line: 3, col: 16, field: "mcp_servers[0].transport", msg: "deprecated alias of http"},
		}},
	})
}

func TestRuleToolsAutoApprove(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "registration and inline agent entry", files: map[string]string{
			globalTOML: stdioReg("fs") + "tools_auto_approve = [\"read_file\", \"list_dir\"]\n",
			agentYAML:  "mcp_servers:\n  - ref: fs\n  - id: other\n    transport: stdio\n    command: other\n    tools_auto_approve: [echo]\n",
		}},
		{name: "an empty list approves nothing and is harmless", files: map[string]string{
			globalTOML: stdioReg("fs") + "tools_auto_approve = []\n",
		}},
		{name: "duplicate, blank, white space, non-string, too long, not a list", files: map[string]string{
			globalTOML: stdioReg("fs") + "tools_auto_approve = [\"read\", \"read\", \"\", \"two words\", 7, \"" + strings.Repeat("x", 129) + "\"]\n",
			agentYAML:  "mcp_servers:\n  - id: other\n    transport: stdio\n    command: other\n    tools_auto_approve: echo\n",
		}, want: []want{
			{code: CodeToolsAllowlist, file: globalTOML, line: 5, col: 31, field: "mcp_servers[0].tools_auto_approve[1]", msg: "twice", related: globalTOML + ":5:23"},
			{code: CodeToolsAllowlist, file: globalTOML, line: 5, col: 39, field: "mcp_servers[0].tools_auto_approve[2]", msg: "empty"},
			{code: CodeToolsAllowlist, file: globalTOML, line: 5, col: 43, field: "mcp_servers[0].tools_auto_approve[3]", msg: "white space"},
			{code: CodeToolsAllowlist, file: globalTOML, line: 5, col: 56, field: "mcp_servers[0].tools_auto_approve[4]", msg: "got an integer"},
			{code: CodeToolsAllowlist, file: globalTOML, line: 5, col: 59, field: "mcp_servers[0].tools_auto_approve[5]", msg: "at most 128"},
			{code: CodeToolsAllowlist, file: agentYAML, line: 5, col: 25, field: "mcp_servers[0].tools_auto_approve", msg: "array"},
		}},
		{name: "a ref takes the registration's list and cannot set its own", files: map[string]string{
			globalTOML: stdioReg("fs"),
			agentYAML:  "mcp_servers:\n  - ref: fs\n    tools_auto_approve: [delete_all_files]\n",
		}, want: []want{
			{code: CodeRefExcludes, file: agentYAML, line: 3, col: 5, field: "mcp_servers[0].tools_auto_approve", msg: "only tools_allowlist"},
		}},
	})
}

func TestRuleCallTimeout(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "zero", files: map[string]string{globalTOML: stdioReg("a") + "call_timeout_ms = 0\n"}, want: []want{
			{code: CodeCallTimeout, file: globalTOML, line: 5, col: 19, field: "mcp_servers[0].call_timeout_ms", msg: "positive"},
		}},
		{name: "over an hour", files: map[string]string{globalTOML: stdioReg("a") + "call_timeout_ms = 3600001\n"}, want: []want{
			{code: CodeCallTimeout, file: globalTOML, line: 5, col: 19, field: "mcp_servers[0].call_timeout_ms", msg: "at most 3600000"},
		}},
		{name: "text", files: map[string]string{globalTOML: stdioReg("a") + "call_timeout_ms = \"60s\"\n"}, want: []want{
			{code: CodeCallTimeout, file: globalTOML, line: 5, col: 19, field: "mcp_servers[0].call_timeout_ms", msg: "got a string"},
		}},
		{name: "an hour accepted", files: map[string]string{globalTOML: stdioReg("a") + "call_timeout_ms = 3600000\n"}},
	})
}
