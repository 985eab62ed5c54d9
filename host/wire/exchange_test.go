package wire

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// An HTTP exchange against a real loopback server is kept with its
// status, timings, JSON-RPC method and the protocol's headers; the
// request's other headers are named, never their values; the url loses
// its query and user info; the session id is shortened.
func TestExchangesTimedAndRedacted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Mcp-Session-Id", "sess-0123456789abcdef")
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer srv.Close()
	hub := NewHub("", nil)
	rec := hub.Server("web", func(s string) string { return strings.ReplaceAll(s, "hunter2", "{{secrets.K}}") })
	client := &http.Client{Transport: rec.RoundTripper(rec.Exchanges(srv.Client().Transport))}
	defer client.CloseIdleConnections()

	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp?key=hunter2", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer s3cr3t-token")
	req.Header.Set("X-Api-Key", "hunter2")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(resp.Body)
	resp.Body.Close()

	xs := hub.Exchanges()
	if len(xs) != 1 {
		t.Fatalf("exchanges: %+v", xs)
	}
	x := xs[0]
	if x.Status != 200 || x.Method != "POST" || x.RPC != "initialize" || x.Server != "web" {
		t.Fatalf("exchange: %+v", x)
	}
	if x.URL != srv.URL+"/mcp" {
		t.Fatalf("url %q keeps its query", x.URL)
	}
	if x.SessionID != "sess-012…" || x.ProtocolVersion != "2025-11-25" || x.ContentType != "application/json" {
		t.Fatalf("protocol headers: %+v", x)
	}
	if strings.Join(x.Headers, ",") != "Authorization,X-Api-Key" {
		t.Fatalf("header names: %v", x.Headers)
	}
	if x.ConnectMicros <= 0 || x.FirstByteMicros < x.ConnectMicros || x.TotalMicros < x.FirstByteMicros-1 {
		t.Fatalf("timings: %+v", x)
	}
	all, _ := json.Marshal(xs)
	for _, secret := range []string{"s3cr3t", "hunter2", "Bearer", "0123456789"} {
		if strings.Contains(string(all), secret) {
			t.Fatalf("%q reached an exchange: %s", secret, all)
		}
	}
	if r, x := hub.Version(); r != 2 || x != 1 {
		t.Fatalf("version %d %d", r, x)
	}
}

// A refused exchange is kept with its error (redacted), and the ring is
// bounded.
func TestExchangesErrorAndBound(t *testing.T) {
	hub := NewHub("", nil)
	rec := hub.Server("web", nil)
	fail := roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, io.ErrUnexpectedEOF })
	client := &http.Client{Transport: rec.Exchanges(fail)}
	for range recentExchanges + 5 {
		resp, err := client.Get("http://user:pw@127.0.0.1:1/mcp")
		if err == nil {
			resp.Body.Close()
			t.Fatal("no error")
		}
	}
	xs := hub.Exchanges()
	if len(xs) != recentExchanges || xs[0].Seq != 6 {
		t.Fatalf("ring: %d from %d", len(xs), xs[0].Seq)
	}
	if xs[0].Err == "" || xs[0].Status != 0 || xs[0].URL != "http://[redacted]@127.0.0.1:1/mcp" {
		t.Fatalf("exchange: %+v", xs[0])
	}
	var nilRec *Recorder
	if nilRec.Exchanges(fail) == nil {
		t.Fatal("a nil recorder must pass the transport through")
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
