package netguard

import (
	"strings"
	"testing"
)

func TestCheckHeaderName(t *testing.T) {
	for _, n := range []string{"Authorization", "X-Api-Key", "x-api-key", "Cookie", "Origin", "User-Agent", "X_Tenant", "a!#$%&'*+-.^_`|~9"} {
		if f, why := CheckHeaderName(n); f != HeaderOK {
			t.Errorf("%q refused: %s", n, why)
		}
	}
	for _, n := range []string{"Host", "host", "Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive", "Upgrade", "TE", "Trailer",
		"Expect", "Content-Type", "Content-Encoding", "Accept", "Accept-Encoding", "Last-Event-ID", "Mcp-Session-Id", "MCP-Protocol-Version",
		"mcp-protocol-version", "HTTP2-Settings", "Proxy-Authorization", "Proxy-Connection", "proxy-anything", "Sec-WebSocket-Key",
		"Sec-WebSocket-Protocol", "sec-websocket-extensions"} {
		if f, why := CheckHeaderName(n); f != HeaderReserved || !strings.Contains(why, n) {
			t.Errorf("%q: %v %q, want reserved, naming it", n, f, why)
		}
	}
	for _, n := range []string{"", "X Bad", "X:Bad", "Ä", "X\r\nY", "X\x00", "(x)", "a/b", strings.Repeat("x", MaxHeaderNameLen+1)} {
		if f, why := CheckHeaderName(n); f != HeaderBadName || n != "" && len(n) > 3 && strings.Contains(why, n) {
			t.Errorf("%q: %v %q, want a bad name, not repeated", n, f, why)
		}
	}
	if f, _ := CheckHeaderName(strings.Repeat("x", MaxHeaderNameLen)); f != HeaderOK {
		t.Error("a name of exactly the bound is refused")
	}
}

func TestCheckHeaderValue(t *testing.T) {
	for _, v := range []string{"", "Bearer abc", "a\tb", "ümlaut", strings.Repeat("v", MaxHeaderValueLen)} {
		if f, why := CheckHeaderValue(v); f != HeaderOK {
			t.Errorf("%q refused: %s", v, why)
		}
	}
	for _, tc := range []struct{ v, why string }{
		{"tok\r\nX-Evil: 1", "carriage return"},
		{"tok\nX", "line feed"},
		{"tok\x00", "NUL"},
		{"tok\x1b[31m", "U+001B"},
		{"tok\x7f", "U+007F"},
		{"tok\u0085X-Evil: 1", "U+0085 (NEL"},
		{"tok\u0090", "U+0090"},
		{"tok\u009b31m", "U+009B"},
		{"tok\u2028X", "U+2028"},
		{"tok\u2029X", "U+2029"},
		{"tok\x85X", "not UTF-8"},
		{"token\n", "line feed"},
		{" token", "white space"},
		{"token\t", "white space"},
		{strings.Repeat("v", MaxHeaderValueLen+1), "at most 8192"},
	} {
		f, why := CheckHeaderValue(tc.v)
		if f != HeaderBadValue || !strings.Contains(why, tc.why) || strings.Contains(why, "tok") {
			t.Errorf("%q: %v %q, want a bad value saying %q and never the value", tc.v, f, why, tc.why)
		}
	}
}
