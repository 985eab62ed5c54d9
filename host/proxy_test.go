package host

import (
	"bufio"
	"bytes"
	"context"
	"crypto/x509"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/host/netguard"
)

// tunnelProxy is a CONNECT-only forward proxy on loopback that sends every
// tunnel to one address and keeps a copy of every byte it carried.
type tunnelProxy struct {
	ln       net.Listener
	upstream string

	mu       sync.Mutex
	connects []string
	carried  bytes.Buffer
	wg       sync.WaitGroup
}

func newTunnelProxy(t *testing.T, upstream string) *tunnelProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tunnelProxy{ln: ln, upstream: upstream}
	var conns []net.Conn
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			conns = append(conns, c)
			p.mu.Unlock()
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				p.tunnel(c)
			}()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		p.mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

func (p *tunnelProxy) tunnel(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil || req.Method != http.MethodConnect {
		return
	}
	p.mu.Lock()
	p.connects = append(p.connects, req.Host)
	p.mu.Unlock()
	up, err := net.Dial("tcp", p.upstream)
	if err != nil {
		return
	}
	defer up.Close()
	if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\n\r\n"); err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.MultiWriter(up, p.record()), br)
		_ = up.(*net.TCPConn).CloseWrite()
		close(done)
	}()
	_, _ = io.Copy(io.MultiWriter(c, p.record()), up)
	_ = c.Close()
	<-done
}

// record is a writer into carried, safe for the two copy directions.
func (p *tunnelProxy) record() io.Writer { return lockedWriter{p} }

type lockedWriter struct{ p *tunnelProxy }

func (w lockedWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	return w.p.carried.Write(b)
}

type staticResolver map[string]string

func (r staticResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := r[host]; ok {
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// A whole MCP session with static headers through a CONNECT proxy: the
// server, declared by its public name, is reached only through the tunnel,
// TLS is verified end to end, and the proxy never sees a header value.
func TestSessionThroughAConnectProxy(t *testing.T) {
	var b bearerMux
	mux := http.NewServeMux()
	s := leakServer()
	// The origin plays a remote server: it sits on loopback only because a
	// test has nowhere else, so the SDK's localhost rebinding check is off.
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{DisableLocalhostProtection: true}))
	origin := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok := r.Header.Get("Authorization") == "Bearer "+bearerSecret
		b.mu.Lock()
		if ok {
			b.good++
		} else {
			b.bad++
		}
		b.mu.Unlock()
		if !ok {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	origin.Config.ErrorLog = log.New(io.Discard, "", 0)
	origin.StartTLS()
	defer origin.Close()
	pool := x509.NewCertPool()
	pool.AddCert(origin.Certificate())
	port := strconv.Itoa(origin.Listener.Addr().(*net.TCPAddr).Port)
	proxy := newTunnelProxy(t, origin.Listener.Addr().String())

	// Locally example.com is public; only the proxy knows the way.
	g := netguard.New(netguard.WithResolver(staticResolver{"example.com": "93.184.215.14"}), netguard.WithRootCAs(pool),
		netguard.WithProxy(netguard.ProxyConfig{HTTPSProxy: "http://" + proxy.ln.Addr().String()}))
	target, err := g.Admit("https://example.com:"+port+"/mcp", TransportHTTP, false)
	if err != nil {
		t.Fatal(err)
	}
	h := startHost(t, Options{Guard: g, Secrets: mapSecrets{"linear": bearerSecret},
		Servers: []Endpoint{{Name: "n", Transport: TransportHTTP, Target: target, Headers: []Header{{Name: "Authorization", Value: "Bearer {{secrets.linear}}"}}, BoundSecrets: []string{"linear"}}}})
	if st := h.Servers()[0]; st.State != "ready" {
		t.Fatalf("status %+v", st)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	proxy.mu.Lock()
	defer proxy.mu.Unlock()
	if len(proxy.connects) == 0 || proxy.connects[0] != "example.com:"+port {
		t.Fatalf("the proxy saw CONNECT %v", proxy.connects)
	}
	if proxy.carried.Len() == 0 || bytes.Contains(proxy.carried.Bytes(), []byte(bearerSecret)) {
		t.Fatalf("the tunnel carried %d bytes, the bearer token among them: %v", proxy.carried.Len(), bytes.Contains(proxy.carried.Bytes(), []byte(bearerSecret)))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.good == 0 || b.bad != 0 {
		t.Fatalf("origin: %d requests with the token, %d without", b.good, b.bad)
	}
}
