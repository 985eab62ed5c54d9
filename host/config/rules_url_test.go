package config

import (
	"encoding/json"
	"strings"
	"testing"
)

func urlReg(u string) string {
	return "[[mcp_servers]]\nname = \"a\"\ntransport = \"http\"\nurl = \"" + u + "\"\n"
}

// A url may hold {{env.VAR}} (with :-default) and {{secrets.NAME}}, as an
// argument may: it is checked where it is written, its references by
// where they sit, and the url they expand to with the environment the
// file is read with is admitted by the guard as a literal url is.
func TestRuleURLReferences(t *testing.T) {
	f := "mcp_servers[0].url"
	env := map[string]string{"MCP_URL": "https://api.example.com", "PORT": "8931", "API_KEY": "k-123456", "LOCAL": "http://127.0.0.1:9000",
		"PLAIN": "http://mcp.example.com", "META": "https://169.254.169.254", "TEAM": "core", "AUTH_HOST": "h.example.com"}
	good := []string{
		"{{env.MCP_URL}}/mcp",
		"{{env.NOPE:-https://api.example.com}}/mcp",
		"{{env.MCP_URL}}",
		"https://api.example.com/mcp?key={{env.API_KEY}}",
		"https://api.example.com/{{env.TEAM}}/mcp?k={{secrets.api_key}}",
		"https://{{env.NOPE:-api.example.com}}:{{env.PORT}}/mcp",
	}
	for _, u := range good {
		runRule(t, []ruleCase{{name: "good " + u, env: env, files: map[string]string{globalTOML: urlReg(u)}}})
	}
	runRule(t, []ruleCase{
		{name: "a local port from the environment needs the opt-in", env: env, files: map[string]string{globalTOML: urlReg("http://localhost:{{env.PORT}}/mcp")}, want: []want{
			{code: CodeURL, file: globalTOML, line: 4, col: 7, field: f, msg: "allow_local_endpoint"},
		}},
		{name: "and passes with it", env: env, files: map[string]string{globalTOML: urlReg("http://localhost:{{env.PORT}}/mcp") + "allow_local_endpoint = true\n"}},
		{name: "an expanded url that is plain http to a remote host", env: env, files: map[string]string{globalTOML: urlReg("{{env.PLAIN}}/mcp")}, want: []want{
			{code: CodeURL, file: globalTOML, line: 4, col: 7, field: f, msg: "https"},
		}},
		{name: "an expanded metadata address, even opted in", env: env, files: map[string]string{globalTOML: urlReg("{{env.META}}/mcp") + "allow_local_endpoint = true\n"}, want: []want{
			{code: CodeURL, file: globalTOML, line: 4, col: 7, field: f, msg: "metadata"},
		}},
		{name: "a loopback url from the environment", env: env, files: map[string]string{globalTOML: urlReg("{{env.LOCAL}}/mcp")}, want: []want{
			{code: CodeURL, file: globalTOML, line: 4, col: 7, field: f, msg: "allow_local_endpoint"},
		}},
		{name: "an unset variable with no default", env: env, files: map[string]string{globalTOML: urlReg("https://api.example.com/{{env.GONE}}/{{env.ALSO_GONE}}")}, want: []want{
			{code: CodeURLEnvUnset, file: globalTOML, line: 4, col: 7, field: f, msg: "GONE, ALSO_GONE is not set"},
		}},
		{name: "no environment given: every variable unset", files: map[string]string{globalTOML: urlReg("{{env.MCP_URL}}/mcp")}, want: []want{
			{code: CodeURLEnvUnset, file: globalTOML, line: 4, col: 7, field: f, msg: "{{env.MCP_URL}}"},
		}},
		{name: "part of a host name: admitted, and bound at connect", env: env, files: map[string]string{globalTOML: urlReg("https://{{env.TEAM}}.example.com/mcp")}},
		{name: "part of a port", env: env, files: map[string]string{globalTOML: urlReg("https://api.example.com:8{{env.PORT}}/mcp")}, want: []want{
			{code: CodeSecretRef, file: globalTOML, line: 4, col: 7, field: f, msg: "only part of the url's scheme or port"},
		}},
		{name: "a credential spelled into a host name", env: env, files: map[string]string{globalTOML: urlReg("https://{{env.API_KEY}}.attacker.example/mcp")}, want: []want{
			{code: CodeSecretRef, file: globalTOML, line: 4, col: 7, field: f, msg: "says it is a credential"},
		}},
		{name: "a secret in the host", env: env, files: map[string]string{globalTOML: urlReg("https://{{secrets.host}}/mcp")}, want: []want{
			{code: CodeSecretRef, file: globalTOML, line: 4, col: 7, field: f, msg: "only a value the person types"},
		}},
		{name: "a credential's name choosing the host", env: env, files: map[string]string{globalTOML: urlReg("https://{{env.AUTH_HOST}}/mcp")}, want: []want{
			{code: CodeSecretRef, file: globalTOML, line: 4, col: 7, field: f, msg: "says it is a credential"},
		}},
		{name: "user info", env: env, files: map[string]string{globalTOML: urlReg("https://{{env.TEAM}}@api.example.com/mcp")}, want: []want{
			{code: CodeSecretRef, file: globalTOML, line: 4, col: 7, field: f, msg: "user info"},
		}},
		{name: "not a reference", env: env, files: map[string]string{globalTOML: urlReg("https://api.example.com/{{vars.X}}")}, want: []want{
			{code: CodeSecretRef, file: globalTOML, line: 4, col: 7, field: f, msg: "{{env.VAR}}"},
		}},
		{name: "an agent's inline url", env: env, files: map[string]string{agentYAML: "mcp_servers:\n  - id: a\n    transport: http\n    url: \"https://{{env.GONE}}/mcp\"\n"}, want: []want{
			{code: CodeURLEnvUnset, file: agentYAML, line: 4, col: 10, field: f},
		}},
	})
}

// No value the url was expanded with reaches a problem: each is shown as
// the reference it stands for, in the message and in the cause.
func TestURLProblemsNeverShowAValue(t *testing.T) {
	root := writeTree(t, map[string]string{globalTOML: urlReg("{{env.BASE}}/{{env.TEAM}}/mcp")})
	env := map[string]string{"BASE": "http://remote-host-value.example", "TEAM": "team-value-secret"}
	_, err := LoadFrom(root+"/home", root+"/project", Sources{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	ps := problemsOf(t, err)
	if len(ps) != 1 || ps[0].Code != CodeURL {
		t.Fatalf("problems %v", ps)
	}
	b, _ := json.Marshal(ps)
	text := string(b) + ps[0].String()
	for _, v := range env {
		if strings.Contains(text, v) {
			t.Errorf("a problem shows %q:\n%s", v, text)
		}
	}
	if !strings.Contains(text, "{{env.BASE}}") {
		t.Errorf("the problem does not name the reference:\n%s", text)
	}
}
