package config

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// Security rules (docs/security.md): the shared env denylist (consent.CheckEnv), a
// declared PATH, env names, secret references, and url admission
// (netguard.AdmitURL). config applies these rules; consent and netguard own
// them, so the cases below exercise those packages end to end.

func TestRuleEnvDenied(t *testing.T) {
	stdioEnv := func(env string) string {
		return "mcp_servers:\n  - id: a\n    transport: stdio\n    command: node\n    env:\n      " + env + "\n"
	}
	runRule(t, []ruleCase{
		{name: "fixture: loader, node, npm, shell function, on both surfaces", fixture: "env-denied", want: []want{
			{code: CodeEnvDenied, file: globalTOML, line: 7, col: 1, field: "mcp_servers[0].env.LD_PRELOAD", msg: "LD_"},
			{code: CodeEnvDenied, file: globalTOML, line: 8, col: 1, field: "mcp_servers[0].env.node_options", msg: "NODE_OPTIONS"},
			{code: CodeEnvDenied, file: globalTOML, line: 9, col: 12, field: "mcp_servers[0].env.GREETING", msg: "() {"},
			{code: CodeEnvDenied, file: globalTOML, line: 10, col: 1, field: "mcp_servers[0].env.NPM_CONFIG_REGISTRY", msg: "NPM_CONFIG_"},
			{code: CodeEnvDenied, file: agentYAML, line: 6, col: 7, field: "mcp_servers[0].env.DYLD_INSERT_LIBRARIES", msg: "DYLD_"},
			{code: CodeEnvDenied, file: agentYAML, line: 7, col: 7, field: "mcp_servers[0].env.BASH_FUNC_ls", msg: "BASH_FUNC_"},
		}},
		{name: "ld_preload in lower case", files: map[string]string{agentYAML: stdioEnv("ld_preload: /tmp/x.so")}, want: []want{
			{code: CodeEnvDenied, file: agentYAML, line: 6, col: 7, field: "mcp_servers[0].env.ld_preload"},
		}},
		{name: "PYTHONPATH is denied", files: map[string]string{agentYAML: stdioEnv("PYTHONPATH: /tmp")}, want: []want{
			{code: CodeEnvDenied, file: agentYAML, line: 6, col: 7, field: "mcp_servers[0].env.PYTHONPATH"},
		}},
		{name: "PYTHONUNBUFFERED and UV_THREADPOOL_SIZE are the exceptions", files: map[string]string{agentYAML: stdioEnv("PYTHONUNBUFFERED: \"1\"\n      UV_THREADPOOL_SIZE: \"8\"")}},
		{name: "a shell function value under an innocent name", files: map[string]string{agentYAML: stdioEnv(`GREETING: "() { :; }; curl evil"`)}, want: []want{
			{code: CodeEnvDenied, file: agentYAML, line: 6, col: 17, field: "mcp_servers[0].env.GREETING"},
		}},
	})
}

func TestRuleEnvPath(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: PATH and Path", fixture: "env-path", want: []want{
			{code: CodeEnvPath, file: globalTOML, line: 5, col: 9, field: "mcp_servers[0].env.PATH", msg: "ambient PATH"},
			{code: CodeEnvPath, file: agentYAML, line: 6, col: 7, field: "mcp_servers[0].env.Path"},
		}},
		{name: "path in lower case", files: map[string]string{globalTOML: stdioReg("a") + "[mcp_servers.env]\npath = \"/tmp\"\n"}, want: []want{
			{code: CodeEnvPath, file: globalTOML, line: 6, col: 1, field: "mcp_servers[0].env.path"},
		}},
	})
}

func TestRuleEnvName(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: digit first, hyphen, empty, '='", fixture: "env-name", want: []want{
			{code: CodeEnvName, file: globalTOML, line: 7, col: 1, field: "mcp_servers[0].env.1ST"},
			{code: CodeEnvName, file: globalTOML, line: 8, col: 1, field: "mcp_servers[0].env.A-B"},
			{code: CodeEnvName, file: globalTOML, line: 9, col: 1, field: `mcp_servers[0].env.""`},
			{code: CodeEnvName, file: agentYAML, line: 6, col: 7, field: "mcp_servers[0].env.A=B"},
		}},
		{name: "portable names", files: map[string]string{globalTOML: stdioReg("a") + "[mcp_servers.env]\n_X = \"1\"\nabc_9 = \"2\"\n"}},
	})
}

func TestRuleSecretRef(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "fixture: embedded, spaced, empty, other namespace", fixture: "secret-ref", want: []want{
			{code: CodeSecretRef, file: globalTOML, line: 8, col: 10, field: "mcp_servers[0].env.SPACED", msg: "{{secrets.NAME}}"},
			{code: CodeSecretRef, file: globalTOML, line: 9, col: 9, field: "mcp_servers[0].env.EMPTY"},
			{code: CodeSecretRef, file: agentYAML, line: 6, col: 17, field: "mcp_servers[0].env.HOME_DIR"},
		}},
		{name: "a whole reference", files: map[string]string{globalTOML: stdioReg("a") + "env = { TOKEN = \"{{secrets.github-token.v2}}\" }\n"}},
		{name: "an environment reference, with and without a default", files: map[string]string{globalTOML: stdioReg("a") + "env = { A = \"{{env.API_KEY}}\", B = \"{{env.LEVEL:-info}}\" }\n"}},
		{name: "an environment reference as a whole argument", files: map[string]string{globalTOML: stdioReg("a") + "args = [\"--port\", \"{{env.PORT:-3000}}\", \"{{secrets.x}}\"]\n"}},
		{name: "environment references inside an argument", files: map[string]string{globalTOML: stdioReg("a") + "args = [\"--port={{env.PORT}}\", \"{{env.HOME}}/state:{{env.TAG:-x}}\"]\n"}},
		{name: "a malformed environment reference inside an argument", files: map[string]string{globalTOML: stdioReg("a") + "args = [\"--port={{env.PORT\", \"{{env.HOME}}/{{env.1X}}\"]\n"}, want: []want{
			{code: CodeSecretRef, file: globalTOML, line: 5, col: 9, field: "mcp_servers[0].args[0]", msg: "inside text"},
			{code: CodeSecretRef, file: globalTOML, line: 5, col: 30, field: "mcp_servers[0].args[1]", msg: "inside text"},
		}},
		{name: "an environment reference that names no variable", files: map[string]string{globalTOML: stdioReg("a") + "env = { A = \"{{env.1X}}\", B = \"x {{env.Y}} {{z}}\" }\n"}, want: []want{
			{code: CodeSecretRef, file: globalTOML, line: 5, col: 13, field: "mcp_servers[0].env.A", msg: "{{env.VAR}}"},
			{code: CodeSecretRef, file: globalTOML, line: 5, col: 31, field: "mcp_servers[0].env.B"},
		}},
		{name: "environment references in a command and a cwd", files: map[string]string{globalTOML: "[[mcp_servers]]\nname = \"a\"\ntransport = \"stdio\"\ncommand = \"{{env.HOME}}/bin/a\"\ncwd = \"{{env.HOME}}/state\"\n"}},
		{name: "a secret in a command or a cwd", files: map[string]string{globalTOML: "[[mcp_servers]]\nname = \"a\"\ntransport = \"stdio\"\ncommand = \"{{secrets.bin}}/a\"\ncwd = \"x/{{env.1X}}\"\n"}, want: []want{
			{code: CodeSecretRef, file: globalTOML, line: 4, col: 11, field: "mcp_servers[0].command", msg: "never as a path"},
			{code: CodeSecretRef, file: globalTOML, line: 5, col: 7, field: "mcp_servers[0].cwd"},
		}},
		{name: "references inside an env value's text", files: map[string]string{globalTOML: stdioReg("a") + "env = { A = \"{{env.HOME}}/state\", B = \"Bearer {{secrets.token}}\" }\n"}},
	})
}

func TestRuleURL(t *testing.T) {
	reg := func(name, transport, url string, local bool) string {
		s := "[[mcp_servers]]\nname = \"" + name + "\"\ntransport = \"" + transport + "\"\nurl = \"" + url + "\"\n"
		if local {
			s += "allow_local_endpoint = true\n"
		}
		return s
	}
	runRule(t, []ruleCase{
		{name: "fixture: remote websocket, plaintext, userinfo, loopback, numeric trick", fixture: "url", want: []want{
			{code: CodeURL, file: globalTOML, line: 4, col: 7, field: "mcp_servers[0].url", msg: `transport = "http"`},
			{code: CodeURL, file: globalTOML, line: 9, col: 7, field: "mcp_servers[1].url", msg: "https"},
			{code: CodeURL, file: globalTOML, line: 14, col: 7, field: "mcp_servers[2].url", msg: "userinfo"},
			{code: CodeURL, file: agentYAML, line: 4, col: 10, field: "mcp_servers[0].url", msg: "allow_local_endpoint"},
			{code: CodeURL, file: agentYAML, line: 7, col: 10, field: "mcp_servers[1].url", msg: "127.1"},
		}},
		{name: "scheme does not match the transport", files: map[string]string{globalTOML: reg("a", "http", "ws://127.0.0.1:9000", true)}, want: []want{
			{code: CodeURL, file: globalTOML, line: 4, col: 7, field: "mcp_servers[0].url"},
		}},
		{name: "metadata address even with the opt-in", files: map[string]string{globalTOML: reg("a", "http", "http://169.254.169.254/latest", true)}, want: []want{
			{code: CodeURL, file: globalTOML, line: 4, col: 7, field: "mcp_servers[0].url"},
		}},
		{name: "admitted: remote https, local http and ws with the opt-in", files: map[string]string{globalTOML: reg("a", "http", "https://mcp.example.com/mcp", false) +
			reg("b", "http", "http://localhost:4000/mcp", true) + reg("c", "websocket", "ws://127.0.0.1:9000/", true)}},
	})
}

// TestRuleURLCauseKept: the envelope keeps netguard's own code, reason and
// remedy under cause, for machine readers.
func TestRuleURLCauseKept(t *testing.T) {
	root := writeTree(t, map[string]string{globalTOML: "[[mcp_servers]]\nname = \"a\"\ntransport = \"websocket\"\nurl = \"wss://mcp.example.com/ws\"\n"})
	_, err := Load(root+"/home", root+"/project")
	ps := problemsOf(t, err)
	b, _ := json.Marshal(ps[0].Cause)
	for _, s := range []string{`"code":"E5`, `"remedy"`, `"reason"`} {
		if !strings.Contains(string(b), s) {
			t.Errorf("cause %s lacks %s", b, s)
		}
	}
}

// TestEnvValueNeverEchoed: a declared value (possibly a credential) never
// appears in a problem, its cause, or the human rendering.
func TestEnvValueNeverEchoed(t *testing.T) {
	const secret = "() { hunter2-super-secret; }"
	root := writeTree(t, map[string]string{
		globalTOML: stdioReg("a") + "[mcp_servers.env]\nTOKEN = \"" + secret + "\"\nLD_PRELOAD = \"hunter2-super-secret\"\n",
	})
	_, err := Load(root+"/home", root+"/project")
	var ce *Error
	if !errors.As(err, &ce) || len(ce.Problems) != 2 {
		t.Fatalf("want 2 problems, got %v", err)
	}
	var human strings.Builder
	if werr := ce.WriteHuman(&human); werr != nil {
		t.Fatal(werr)
	}
	data, _ := json.Marshal(ce.ErrorData())
	for _, out := range []string{human.String(), string(data), ce.Error()} {
		if strings.Contains(out, "hunter2") {
			t.Errorf("a declared value leaked: %s", out)
		}
	}
}
