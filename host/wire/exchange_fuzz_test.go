package wire

import (
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// What an Exchange takes from a request and a response (the POST's
// JSON-RPC method, the url, the session id, the header names) is one
// clean line whatever the bytes, never a header value.
func FuzzExchangeFields(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, "http://u:p@h/mcp?k=v#f", "abc\x1b[31mdefghij", "X-Key")
	f.Add(`[{"jsonrpc":"2.0","method":"a"}]`, "ws://h", "", "Authorization")
	f.Add(`{"jsonrpc":"2.0","id":1,"result":{}}`, "\x00://@", "\u202eéééééééééé", "")
	f.Add("\xff", "http://h/\u202e", "\xff\xfe", "Bad\nName")
	f.Fuzz(func(t *testing.T, body, url, session, name string) {
		r := (&Hub{now: nil}).Server("s", nil)
		clean := func(what, s string) {
			if strings.ContainsAny(s, "\x1b\n\r\u202e") || !utf8.ValidString(s) {
				t.Fatalf("%s is not one clean line: %q", what, s)
			}
		}
		clean("rpc", rpcMethod([]byte(body)))
		clean("url", r.redactURL(url))
		id := shortID(session)
		clean("session", id)
		if utf8.RuneCountInString(id) > 9 {
			t.Fatalf("session id %q not shortened", id)
		}
		h := http.Header{}
		h[name] = []string{"secret-value"}
		for _, n := range headerNames(h) {
			clean("header name", n)
			if strings.Contains(n, "secret-value") {
				t.Fatal("a header value in the names")
			}
		}
	})
}
