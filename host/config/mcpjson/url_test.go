package mcpjson

import "testing"

// A url (or Windsurf's serverUrl) translates as an argument does: each
// reference becomes relavium's own, the rest stays as written; where a
// reference may sit is config's rule (host/config's import_url_test.go).
func TestReadTranslatesURLReferences(t *testing.T) {
	for _, c := range []struct{ entry, want, code string }{
		{`"url": "${MCP_URL:-https://api.example.com}/mcp"`, "{{env.MCP_URL:-https://api.example.com}}/mcp", ""},
		{`"url": "https://api.example.com/mcp?key=${API_KEY}"`, "https://api.example.com/mcp?key={{env.API_KEY}}", ""},
		{`"url": "http://localhost:${PORT}/mcp"`, "http://localhost:{{env.PORT}}/mcp", ""},
		{`"url": "${env:BASE}/t/${userHome}"`, "{{env.BASE}}/t/{{env.HOME}}", ""},
		{`"serverUrl": "https://${HOST}/sse"`, "https://{{env.HOST}}/sse", ""},
		{`"url": "https://${input:domain}/mcp_server/sse"`, "https://{{secrets.domain}}/mcp_server/sse", ""},
		{`"url": "${workspaceFolder}"`, "/data/app", ""},
		{`"url": "https://x/${A${B}}"`, "", "E240"},
		{`"url": "https://x/${A"`, "", "E240"},
		{`"url": "https://x/?k=${API_TOKEN:-abc}"`, "", "E241"},
		{`"url": 3`, "", "E235"},
	} {
		f := Read("f.json", []byte(`{"inputs": [{"id": "domain", "type": "promptString"}], "servers": {"a": {"type": "http", `+c.entry+`}}}`), Options{Project: "/data/app"})
		if c.code != "" {
			if len(f.Problems) != 1 || string(f.Problems[0].Code) != c.code {
				t.Errorf("%s: problems %v, want %s", c.entry, f.Problems, c.code)
			}
			continue
		}
		if len(f.Problems) != 0 || len(f.Entries) != 1 {
			t.Fatalf("%s: problems %v", c.entry, f.Problems)
		}
		var got string
		for _, m := range f.Entries[0].Fields {
			if m.Key == "url" {
				got = m.Value.Str
			}
		}
		if got != c.want {
			t.Errorf("%s: url %q, want %q", c.entry, got, c.want)
		}
	}
}
