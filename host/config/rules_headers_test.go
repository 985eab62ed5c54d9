package config

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Static headers of network servers: every refused name and value is an
// authored problem at its own key or value, the same on both surfaces.
func TestRuleHeaders(t *testing.T) {
	h := "mcp_servers[0].headers."
	runRule(t, []ruleCase{
		{name: "fixture: every refused header, both surfaces", fixture: "headers", want: []want{
			{code: CodeHeaderReserved, file: globalTOML, line: 8, col: 1, field: h + "Host", msg: "another virtual host"},
			{code: CodeHeaderReserved, file: globalTOML, line: 9, col: 1, field: h + "Content-Length", msg: "frames"},
			{code: CodeHeaderReserved, file: globalTOML, line: 10, col: 1, field: h + "Transfer-Encoding", msg: "frames"},
			{code: CodeHeaderReserved, file: globalTOML, line: 11, col: 1, field: h + "Connection", msg: "hop-by-hop"},
			{code: CodeHeaderReserved, file: globalTOML, line: 12, col: 1, field: h + "Keep-Alive", msg: "hop-by-hop"},
			{code: CodeHeaderReserved, file: globalTOML, line: 13, col: 1, field: h + "Upgrade", msg: "hop-by-hop"},
			{code: CodeHeaderReserved, file: globalTOML, line: 14, col: 1, field: h + "TE", msg: "TE cannot"},
			{code: CodeHeaderReserved, file: globalTOML, line: 15, col: 1, field: h + "Trailer", msg: "frames"},
			{code: CodeHeaderReserved, file: globalTOML, line: 16, col: 1, field: h + "Proxy-Authorization", msg: "HTTPS_PROXY"},
			{code: CodeHeaderReserved, file: globalTOML, line: 17, col: 1, field: h + "Mcp-Session-Id", msg: "the protocol sets it"},
			{code: CodeHeaderReserved, file: globalTOML, line: 18, col: 1, field: h + "MCP-Protocol-Version", msg: "negotiated"},
			{code: CodeHeaderName, file: globalTOML, line: 19, col: 1, field: h + "X Bad", msg: "not an HTTP header name"},
			{code: CodeHeaderName, file: globalTOML, line: 20, col: 1, field: h + "x-api-key", msg: "declared twice", related: globalTOML + ":7:1"},
			{code: CodeHeaderValue, file: globalTOML, line: 21, col: 12, field: h + "X-Broken", msg: "carriage return"},
			{code: CodeHeaderValue, file: globalTOML, line: 22, col: 9, field: h + "X-Nul", msg: "NUL"},
			{code: CodeHeaderSecretRef, file: globalTOML, line: 23, col: 14, field: h + "X-Template", msg: "{{secrets.NAME}}"},
			{code: CodeType, file: globalTOML, line: 24, col: 12, field: h + "X-Number", msg: "strings"},
			{code: CodeHeaderValue, file: globalTOML, line: 25, col: 12, field: h + "X-Pasted", msg: "white space"},
			{code: CodeNetworkOnly, file: globalTOML, line: 31, col: 1, field: "mcp_servers[1].headers", msg: "network-only"},
			{code: CodeHeaderReserved, file: agentYAML, line: 7, col: 7, field: h + "Sec-WebSocket-Key", msg: "websocket"},
			{code: CodeHeaderReserved, file: agentYAML, line: 8, col: 7, field: h + "Accept", msg: "transport sets it"},
			{code: CodeHeaderName, file: agentYAML, line: 9, col: 7, field: h + "Bad:Name", msg: `':'`},
			{code: CodeHeaderSecretRef, file: agentYAML, line: 11, col: 15, field: h + "X-Open"},
		}},
		{name: "an inline table names each refused key", files: map[string]string{globalTOML: httpReg("a") +
			`headers = { Authorization = "Bearer {{secrets.a}}", Host = "x", X-Key = "a\nb" }` + "\n"}, want: []want{
			{code: CodeHeaderReserved, file: globalTOML, line: 5, col: 53, field: "mcp_servers[0].headers.Host"},
			{code: CodeHeaderValue, file: globalTOML, line: 5, col: 73, field: "mcp_servers[0].headers.X-Key", msg: "line feed"},
		}},
		{name: "too many headers", files: map[string]string{globalTOML: httpReg("a") + "[mcp_servers.headers]\n" + manyHeaders(33)}, want: []want{
			{code: CodeHeaderValue, file: globalTOML, line: 5, col: 14, field: "mcp_servers[0].headers", msg: "at most 32"},
		}},
		{name: "a value over 8 KiB", files: map[string]string{globalTOML: httpReg("a") + "[mcp_servers.headers]\nX-Big = \"" + strings.Repeat("v", 8193) + "\"\n"}, want: []want{
			{code: CodeHeaderValue, file: globalTOML, line: 6, col: 9, field: "mcp_servers[0].headers.X-Big", msg: "at most 8192"},
		}},
		{name: "headers must be a table", files: map[string]string{globalTOML: httpReg("a") + "headers = [\"Authorization: x\"]\n"}, want: []want{
			{code: CodeType, file: globalTOML, line: 5, col: 11, field: "mcp_servers[0].headers"},
		}},
		{name: "beside ref", files: map[string]string{
			globalTOML: httpReg("a"),
			agentYAML:  "mcp_servers:\n  - ref: a\n    headers: {X-A: b}\n",
		}, want: []want{
			{code: CodeRefExcludes, file: agentYAML, line: 3, col: 5, field: "mcp_servers[0].headers"},
		}},
	})
}

func httpReg(name string) string {
	return fmt.Sprintf("[[mcp_servers]]\nname = %q\ntransport = \"http\"\nurl = \"https://example.com/mcp\"\n", name)
}

func manyHeaders(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "X-H%d = \"v\"\n", i)
	}
	return b.String()
}

// A valid declaration keeps its headers in order, and no surface of the
// loaded config shows a value.
func TestHeadersLoadedAndNeverShown(t *testing.T) {
	root := caseRoot(t, ruleCase{files: map[string]string{globalTOML: httpReg("linear") +
		"headers = { Authorization = \"Bearer {{secrets.linear}}\", X-Api-Key = \"literal-key-9d1e\", X-Tab = \"a\\tb\" }\n"}})
	cfg, err := Load(root+"/home", root+"/project")
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Servers[0]
	if len(s.Headers) != 3 || s.Headers[0].Name != "Authorization" || s.Headers[0].Value != "Bearer {{secrets.linear}}" || s.Headers[1].Value != "literal-key-9d1e" {
		t.Fatalf("headers %#v", s.Headers)
	}
	if !s.StaticAuthorization() {
		t.Error("a declared Authorization is not static authorization")
	}
	b, _ := json.Marshal(cfg)
	shown := string(b) + fmt.Sprint(s) + fmt.Sprintf("%v %+v %#v", s.Headers, s.Headers, s.Headers)
	for _, v := range []string{"literal-key-9d1e", "secrets.linear"} {
		if strings.Contains(shown, v) {
			t.Errorf("a header value is shown: %s", shown)
		}
	}
	if !strings.Contains(string(b), `{"name":"X-Api-Key","value":"[REDACTED]"}`) {
		t.Errorf("--json does not name the header with its value redacted: %s", b)
	}
}
