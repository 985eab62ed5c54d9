package engine

import "testing"

func TestSuggest(t *testing.T) {
	cands := []string{"version", "mcp ls", "mcp call", "consent ls", "stdio", "http", "websocket"}
	cases := map[string]string{
		"vesion":    "version",
		"mcp lss":   "mcp ls",
		"MCP CALL":  "mcp call",
		"stdoi":     "stdio",
		"htp":       "http",
		"websockt":  "websocket",
		"zzzzzz":    "",
		"x":         "",
		"consentls": "consent ls",
	}
	for word, want := range cases {
		if got := Suggest(word, cands); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", word, got, want)
		}
	}
}
