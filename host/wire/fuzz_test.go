package wire

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// The SSE and JSON body taps and the line tap never change the bytes they
// pass on, never panic, and record each well-formed message once.
func FuzzTaps(f *testing.F) {
	f.Add("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n", true)
	f.Add("event: message\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"method\":\"m\"}\r\n\r\n", true)
	f.Add("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"error\":{\"code\":-1,\"message\":\"no\"}}", false)
	f.Add("[{\"jsonrpc\":\"2.0\",\"method\":\"a\"},{\"jsonrpc\":\"2.0\",\"method\":\"b\"}]", false)
	f.Add("\x00\xff{", true)
	f.Fuzz(func(t *testing.T, body string, sse bool) {
		hub := NewHub("", nil)
		rec := hub.Server("s", func(s string) string { return s })
		tap := &bodyTap{rc: io.NopCloser(strings.NewReader(body)), r: rec, sse: sse}
		got, err := io.ReadAll(tap)
		if err != nil || string(got) != body {
			t.Fatalf("body tap changed the body: %q → %q (%v)", body, got, err)
		}
		_ = tap.Close()
		lines := rec.Lines(io.NopCloser(strings.NewReader(body)))
		got, err = io.ReadAll(lines)
		if err != nil || !bytes.Equal(got, []byte(body)) {
			t.Fatalf("line tap changed the stream")
		}
		for _, r := range hub.Recent() {
			if r.Message != nil && r.Truncated {
				t.Fatalf("a truncated record keeps its message: %+v", r)
			}
		}
	})
}
