package inbound

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// readCountingBody records whether anyone read it.
type readCountingBody struct {
	r    io.Reader
	read int
}

func (b *readCountingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read += n
	return n, err
}
func (b *readCountingBody) Close() error { return nil }

func TestHTTPGuard(t *testing.T) {
	var got string
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = string(b)
		w.WriteHeader(http.StatusNoContent)
	})
	g := &Guard{Token: newToken(TokenFromEnv, "", "tok"), Allowed: []string{"box.lan"}, Next: next}
	serve := func(host, auth, origin string, body io.ReadCloser) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "http://"+host+"/mcp", body)
		r.Host = host
		if auth != "" {
			r.Header.Set("Authorization", "Bearer "+auth)
		}
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		return w
	}

	body := &readCountingBody{r: strings.NewReader(`{"jsonrpc":"2.0"}`)}
	w := serve("127.0.0.1:3825", "wrong", "", body)
	if w.Code != http.StatusUnauthorized || w.Header().Get("WWW-Authenticate") != `Bearer realm="relavium-mcp"` || body.read != 0 {
		t.Fatalf("unauthenticated: %d %q, %d body bytes read", w.Code, w.Header().Get("WWW-Authenticate"), body.read)
	}
	if w := serve("127.0.0.1:3825", "", "", nil); w.Code != http.StatusUnauthorized {
		t.Fatalf("no header: %d", w.Code)
	}
	for _, c := range []struct {
		host, origin string
		code         int
	}{
		{"localhost:3825", "", http.StatusNoContent},
		{"[::1]:3825", "http://localhost:6274", http.StatusNoContent},
		{"box.lan:3825", "https://box.lan", http.StatusNoContent},
		{"evil.example.com", "", http.StatusForbidden},
		{"evil.example.com:3825", "http://evil.example.com", http.StatusForbidden},
		{"127.0.0.1:3825", "http://evil.example.com", http.StatusForbidden},
		{"127.0.0.1:3825", "null", http.StatusForbidden},
		{"127.0.0.1:3825", "file://", http.StatusForbidden},
	} {
		if w := serve(c.host, "tok", c.origin, io.NopCloser(strings.NewReader("x"))); w.Code != c.code {
			t.Errorf("Host %s Origin %q: %d, want %d", c.host, c.origin, w.Code, c.code)
		}
	}
	got = ""
	if w := serve("127.0.0.1", "tok", "", io.NopCloser(strings.NewReader("hello"))); w.Code != http.StatusNoContent || got != "hello" {
		t.Fatalf("body not passed on: %d %q", w.Code, got)
	}
	big := io.NopCloser(strings.NewReader(strings.Repeat("a", MaxBodyBytes+1)))
	if w := serve("127.0.0.1", "tok", "", big); w.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("over 4 MiB: %d", w.Code)
	}
	exact := io.NopCloser(strings.NewReader(strings.Repeat("a", MaxBodyBytes)))
	if w := serve("127.0.0.1", "tok", "", exact); w.Code != http.StatusNoContent {
		t.Fatalf("exactly 4 MiB: %d", w.Code)
	}
}
