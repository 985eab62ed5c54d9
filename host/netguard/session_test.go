package netguard

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawServer answers every HTTP/1.1 request on loopback with the given
// session id header, written byte for byte (net/http's server would clean
// it), and an initialize result.
func rawServer(t *testing.T, sessionID string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { ln.Close(); <-done })
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(10 * time.Second))
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				_ = req.Body.Close()
				body := `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"0"}}}`
				_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: " + sessionID +
					"\r\nContent-Length: " + itoa(len(body)) + "\r\nConnection: close\r\n\r\n" + body))
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

func connectOnce(t *testing.T, base string) (*Target, error) {
	t.Helper()
	g := New()
	tg := localTarget(t, g, base, "/mcp", TransportHTTP)
	hc := g.HTTPClient(tg)
	defer hc.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "netguard-test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: tg.URL(), HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err == nil {
		cs.Close()
	}
	return tg, err
}

func TestSessionIDRefused(t *testing.T) {
	cases := map[string]string{
		"61000 bytes":   strings.Repeat("A", 61000),
		"1025 bytes":    strings.Repeat("b", MaxSessionIDLen+1),
		"non-ASCII":     "QZX-\xc3\xa9-\xe2\x80\xae",
		"control char":  "QZX\x1b[2Jion",
		"DEL":           "QZX\x7fion",
		"inner space":   "QZX ion",
		"inner tab":     "QZX\tion",
		"C1 in UTF-8":   "QZX\xc2\x9bion",
		"lone high bit": "QZX\xffion",
	}
	for name, id := range cases {
		t.Run(name, func(t *testing.T) {
			tg, err := connectOnce(t, rawServer(t, id))
			if err == nil {
				t.Fatal("connected with a bad session id")
			}
			r := tg.Refusal()
			if r == nil || r.Code() != CodeSessionID || r.Reason != ReasonSessionID {
				t.Fatalf("refusal %v, want %s (sdk: %v)", r, CodeSessionID, err)
			}
			// Nothing of the server's value comes back raw: not the error,
			// not the refusal in any of its forms.
			var human strings.Builder
			_ = r.WriteHuman(&human)
			for _, s := range []string{err.Error(), r.Error(), human.String(), r.URL, r.Address, r.Remedy} {
				if strings.Contains(s, "QZX") || strings.Contains(s, strings.Repeat("A", 64)) || strings.Contains(s, strings.Repeat("b", 64)) {
					t.Fatalf("the server's id is echoed: %q", s)
				}
				for i := 0; i < len(s); i++ {
					if c := s[i]; c < 0x20 && c != '\n' || c == 0x7f {
						t.Fatalf("control byte 0x%02x in %q", c, s)
					}
				}
			}
		})
	}
}

func TestSessionIDAccepted(t *testing.T) {
	for _, id := range []string{
		"0a1b2c3d-4e5f-6789-abcd-ef0123456789",
		"eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiIxMjMifQ.c2lnbmF0dXJl-_~!#$%&'*+/=?^`|",
		strings.Repeat("z", MaxSessionIDLen),
	} {
		if tg, err := connectOnce(t, rawServer(t, id)); err != nil || tg.Refusal() != nil {
			t.Fatalf("%d-byte id refused: %v (refusal %v)", len(id), err, tg.Refusal())
		}
	}
	// The real go-sdk server's ids pass, and so does no id at all.
	server := blobServer()
	for _, stateless := range []bool{false, true} {
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: stateless})
		s := newCountingServer(t, h.ServeHTTP)
		if tg, err := connectOnce(t, s.URL); err != nil || tg.Refusal() != nil {
			t.Fatalf("go-sdk server (stateless %v): %v (refusal %v)", stateless, err, tg.Refusal())
		}
	}
}
