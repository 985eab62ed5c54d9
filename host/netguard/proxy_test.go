package netguard

import (
	"bufio"
	"context"
	"crypto/x509"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/relavium/relavium/fault"
)

// connectProxy is a real forward proxy on loopback: CONNECT host:port is
// tunnelled, an absolute-form request forwarded, each to the address its
// own table resolves the host to (a proxy resolves names itself). A host
// missing from the table is answered 403.
type connectProxy struct {
	ln    net.Listener
	route map[string]string // host (no port) → loopback ip the proxy uses
	auth  string            // when set, the Proxy-Authorization it demands (407 otherwise)

	mu       sync.Mutex
	seen     []string // "CONNECT host:port" or "GET url"
	gotAuth  []string // Proxy-Authorization headers received
	conns    []net.Conn
	wg       sync.WaitGroup
	listener sync.WaitGroup
}

func newConnectProxy(t *testing.T, route map[string]string) *connectProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &connectProxy{ln: ln, route: route}
	p.listener.Add(1)
	go func() {
		defer p.listener.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			p.conns = append(p.conns, c)
			p.mu.Unlock()
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				p.serve(c)
			}()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		p.listener.Wait()
		p.mu.Lock()
		for _, c := range p.conns {
			_ = c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

func (p *connectProxy) url() string { return "http://" + p.ln.Addr().String() }

func (p *connectProxy) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

func (p *connectProxy) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	p.mu.Lock()
	if req.Method == http.MethodConnect {
		p.seen = append(p.seen, "CONNECT "+req.Host)
	} else {
		p.seen = append(p.seen, req.Method+" "+req.URL.String())
	}
	if a := req.Header.Get("Proxy-Authorization"); a != "" {
		p.gotAuth = append(p.gotAuth, a)
	}
	p.mu.Unlock()
	if p.auth != "" && req.Header.Get("Proxy-Authorization") != p.auth {
		_, _ = io.WriteString(c, "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"corp\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		return
	}
	host, port, err := net.SplitHostPort(req.Host)
	if err != nil {
		host, port = req.Host, "80"
	}
	ip, ok := p.route[strings.TrimSuffix(host, ".")]
	if !ok {
		_, _ = io.WriteString(c, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		return
	}
	up, err := net.Dial("tcp", net.JoinHostPort(ip, port))
	if err != nil {
		_, _ = io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		return
	}
	defer up.Close()
	if req.Method == http.MethodConnect {
		if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
			return
		}
	} else {
		req.Header.Del("Proxy-Authorization")
		req.Close = true
		if err := req.Write(up); err != nil {
			return
		}
	}
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(up, br)
		if tc, ok := up.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		close(done)
	}()
	_, _ = io.Copy(c, up)
	_ = c.Close()
	<-done
}

// tlsOrigin is an https server whose certificate names example.com.
func tlsOrigin(t *testing.T) (port string, pool *x509.CertPool, hits *countingServer) {
	t.Helper()
	cs := &countingServer{}
	cs.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs.hits.Add(1)
		w.WriteHeader(204)
	}))
	cs.Config.ErrorLog = log.New(io.Discard, "", 0)
	cs.StartTLS()
	t.Cleanup(cs.Close)
	pool = x509.NewCertPool()
	pool.AddCert(cs.Certificate())
	return itoaPort(cs.Listener.Addr().(*net.TCPAddr).Port), pool, cs
}

func TestProxyCONNECTKeepsTheGuard(t *testing.T) {
	port, pool, origin := tlsOrigin(t)
	proxy := newConnectProxy(t, map[string]string{"example.com": "127.0.0.1"}) // blocked-at-proxy: 403
	res := newFakeResolver()
	// Local resolution: what the guard decides on. The proxy resolves on
	// its own (its table sends example.com to the loopback origin).
	res.set("example.com", "93.184.215.14")
	res.set("blocked-at-proxy.example.com", "93.184.215.15")
	res.set("meta.example.com", "169.254.169.254")
	res.set("lan.example.com", "192.168.1.10")
	rec := &recordingDialer{}
	cfg := ProxyConfig{HTTPSProxy: proxy.url(), HTTPProxy: proxy.url()}
	g := New(WithResolver(res), WithDialer(rec), WithRootCAs(pool), WithProxy(cfg))

	// An admitted https target goes through CONNECT, with TLS verified end
	// to end against the target's name; nothing is dialled directly.
	tg, err := g.Admit("https://example.com:"+port+"/mcp", TransportHTTP, false)
	if err != nil {
		t.Fatal(err)
	}
	c := g.HTTPClient(tg)
	defer c.CloseIdleConnections()
	if _, err := get(t, c, tg.URL()); err != nil {
		t.Fatalf("through the proxy: %v", err)
	}
	if got := proxy.requests(); len(got) != 1 || got[0] != "CONNECT example.com:"+port {
		t.Fatalf("the proxy saw %v, want one CONNECT example.com:%s", got, port)
	}
	if origin.hits.Load() != 1 || len(rec.recorded()) != 0 {
		t.Fatalf("origin saw %d requests, direct dials %v", origin.hits.Load(), rec.recorded())
	}

	// The target is still admitted by local resolution before anything is
	// sent: a metadata answer, or a private one without the opt-in, is
	// refused and the proxy never hears of it.
	for _, tc := range []struct {
		url  string
		code string
	}{
		{"https://meta.example.com:" + port + "/", "E561"},
		{"https://lan.example.com:" + port + "/", "E560"},
		{"https://nxdomain.example.com:" + port + "/", "E564"},
	} {
		before := len(proxy.requests())
		tr, err := g.Admit(tc.url, TransportHTTP, false)
		if err != nil {
			t.Fatal(err)
		}
		cr := g.HTTPClient(tr)
		_, err = get(t, cr, tr.URL())
		cr.CloseIdleConnections()
		if r, ok := AsRefusal(err); !ok || string(r.Code()) != tc.code {
			t.Fatalf("%s: %v, want %s", tc.url, err, tc.code)
		}
		if len(proxy.requests()) != before {
			t.Fatalf("%s reached the proxy: %v", tc.url, proxy.requests())
		}
	}

	// A CONNECT the proxy refuses is the proxy's refusal (E596, exit 1).
	tb, _ := g.Admit("https://blocked-at-proxy.example.com:"+port+"/", TransportHTTP, false)
	cb := g.HTTPClient(tb)
	defer cb.CloseIdleConnections()
	_, err = get(t, cb, tb.URL())
	if r, ok := AsRefusal(err); !ok || r.Code() != CodeProxy || r.ExitCode() != fault.ExitFailure || !strings.Contains(r.Msg, "403") {
		t.Fatalf("a refused CONNECT: %v, want %s exit 1", err, CodeProxy)
	}
	if len(rec.recorded()) != 0 {
		t.Fatalf("a target was dialled directly: %v", rec.recorded())
	}
}

func TestProxyExceptions(t *testing.T) {
	proxy := newConnectProxy(t, map[string]string{})
	res := newFakeResolver()
	res.set("example.com", "93.184.215.14")
	res.set("api.corp.example", "93.184.215.16")
	for _, tc := range []struct {
		noProxy, url string
		direct       bool
	}{
		{"", "https://example.com/", false},
		{"example.com", "https://example.com/", true},
		{"example.com", "https://api.example.com./", true},
		{".example.com", "https://example.com/", false},
		{"*.example.com", "https://api.example.com/", true},
		{"example.com:8443", "https://example.com/", false},
		{"example.com:443", "https://example.com/", true},
		{"corp.example, 10.0.0.0/8", "https://api.corp.example/", true},
		{"*", "https://example.com/", true},
		{"10.0.0.0/8", "https://10.1.2.3/", true},
		{"93.184.215.14", "https://93.184.215.14/", true},
		{"93.184.215.14", "https://example.com/", false},
		{"", "http://127.0.0.1:8080/", true}, // loopback is never proxied
		{"", "http://localhost:8080/", true},
		{"", "http://localhost.:8080/", true},
		{"", "http://[::1]:8080/", true},
	} {
		g := New(WithResolver(res), WithProxy(ProxyConfig{HTTPSProxy: proxy.url(), HTTPProxy: proxy.url(), NoProxy: tc.noProxy}))
		tg, err := g.Admit(tc.url, TransportHTTP, true)
		if err != nil {
			t.Fatalf("%s: %v", tc.url, err)
		}
		u, e := g.proxy.proxyFor(tg)
		if e != nil || (u == nil) != tc.direct {
			t.Errorf("NO_PROXY=%q %s: proxy %v (%v), want direct=%v", tc.noProxy, tc.url, u, e, tc.direct)
		}
	}
}

// A plaintext target (local, opted in) goes through HTTP_PROXY as an
// absolute-form request, after the same local admission.
func TestProxyForwardsPlainHTTP(t *testing.T) {
	origin := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	port := itoaPort(origin.Listener.Addr().(*net.TCPAddr).Port)
	proxy := newConnectProxy(t, map[string]string{"lan.example.com": "127.0.0.1"})
	res := newFakeResolver()
	res.set("lan.example.com", "192.168.1.10")
	g := New(WithResolver(res), WithDialer(&recordingDialer{}), WithProxy(ProxyConfig{HTTPProxy: "user:pa55word@" + strings.TrimPrefix(proxy.url(), "http://")}))
	tg, err := g.Admit("http://lan.example.com:"+port+"/mcp", TransportHTTP, true)
	if err != nil {
		t.Fatal(err)
	}
	c := g.HTTPClient(tg)
	defer c.CloseIdleConnections()
	if _, err := get(t, c, tg.URL()); err != nil {
		t.Fatal(err)
	}
	if got := proxy.requests(); len(got) != 1 || got[0] != "GET http://lan.example.com:"+port+"/mcp" || origin.hits.Load() != 1 {
		t.Fatalf("proxy saw %v, origin %d", got, origin.hits.Load())
	}
	proxy.mu.Lock()
	auth := proxy.gotAuth
	proxy.mu.Unlock()
	if len(auth) != 1 || !strings.HasPrefix(auth[0], "Basic ") {
		t.Errorf("the proxy's credentials were not sent: %v", auth)
	}
	// Without the opt-in the private answer is refused before the proxy.
	g2 := New(WithResolver(res), WithProxy(ProxyConfig{HTTPSProxy: proxy.url()}))
	t2, err := g2.Admit("https://lan.example.com:"+port+"/mcp", TransportHTTP, false)
	if err != nil {
		t.Fatal(err)
	}
	c2 := g2.HTTPClient(t2)
	defer c2.CloseIdleConnections()
	if _, err := get(t, c2, t2.URL()); err == nil || !strings.Contains(err.Error(), "E560") || len(proxy.requests()) != 1 {
		t.Fatalf("private without opt-in: %v; proxy saw %v", err, proxy.requests())
	}
}

func TestProxySettingsThatCannotBeUsed(t *testing.T) {
	for _, raw := range []string{"socks5://127.0.0.1:1080", "http://", "http://proxy.example:99999", "ftp://user:hunter22@proxy.example"} {
		g := New(WithProxy(ProxyConfig{HTTPSProxy: raw}))
		_, err := g.Admit("https://example.com/mcp", TransportHTTP, false)
		r, ok := AsRefusal(err)
		if !ok || r.Code() != CodeProxy || r.ExitCode() != fault.ExitUsage || !strings.Contains(r.Msg, "HTTPS_PROXY") {
			t.Errorf("HTTPS_PROXY=%s: %v, want %s exit 2", raw, err, CodeProxy)
		}
		if strings.Contains(err.Error(), "hunter22") {
			t.Errorf("the proxy's password is shown: %v", err)
		}
		// HTTP_PROXY alone does not concern an https target.
		if _, err := New(WithProxy(ProxyConfig{HTTPProxy: raw})).Admit("https://example.com/mcp", TransportHTTP, false); err != nil {
			t.Errorf("HTTP_PROXY=%s refused an https target: %v", raw, err)
		}
	}
	env := map[string]string{"https_proxy": "http://a:1", "HTTP_PROXY": "http://b:2", "http_proxy": "http://c:3", "no_proxy": "x"}
	p := ProxyFromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if p.HTTPSProxy != "http://a:1" || p.HTTPProxy != "http://b:2" || p.NoProxy != "x" {
		t.Errorf("ProxyFromEnv = %+v", p)
	}
	if s := (ProxyConfig{HTTPSProxy: "http://u:hunter22@p.example:8080"}).String(); strings.Contains(s, "hunter22") {
		t.Errorf("String shows the proxy password: %s", s)
	}
}

// A proxy that wants credentials answers CONNECT 407: E596 says to put them
// in the proxy url; with them the tunnel opens, and they are never shown.
func TestProxyAuthentication(t *testing.T) {
	port, pool, origin := tlsOrigin(t)
	proxy := newConnectProxy(t, map[string]string{"example.com": "127.0.0.1"})
	proxy.auth = "Basic dXNlcjpodW50ZXIyMg==" // user:hunter22
	res := newFakeResolver()
	res.set("example.com", "93.184.215.14")
	for _, tc := range []struct {
		proxy string
		ok    bool
	}{
		{proxy.url(), false},
		{"http://user:wrong-pw@" + proxy.ln.Addr().String(), false},
		{"http://user:hunter22@" + proxy.ln.Addr().String(), true},
	} {
		g := New(WithResolver(res), WithRootCAs(pool), WithProxy(ProxyConfig{HTTPSProxy: tc.proxy}))
		tg, err := g.Admit("https://example.com:"+port+"/mcp", TransportHTTP, false)
		if err != nil {
			t.Fatal(err)
		}
		c := g.HTTPClient(tg)
		_, err = get(t, c, tg.URL())
		c.CloseIdleConnections()
		if tc.ok {
			if err != nil {
				t.Fatalf("with the credentials: %v", err)
			}
			continue
		}
		r, ok := AsRefusal(err)
		if !ok || r.Code() != CodeProxy || !strings.Contains(r.Msg, "407") || !strings.Contains(r.Remedy, "user:password@") {
			t.Fatalf("%s: %v, want %s 407 with the credentials remedy", tc.proxy, err, CodeProxy)
		}
		if strings.Contains(err.Error(), "wrong-pw") || strings.Contains(r.Address, "wrong-pw") || strings.Contains(r.Remedy, "wrong-pw") {
			t.Fatalf("the proxy password is shown: %v %+v", err, r)
		}
	}
	if origin.hits.Load() != 1 {
		t.Fatalf("origin saw %d requests, want 1", origin.hits.Load())
	}
}

// A name that resolves here to this machine is reached directly even with
// a proxy set (the proxy's loopback is not ours), under the opt-in as ever.
func TestProxyNameResolvingToLoopbackIsDirect(t *testing.T) {
	origin := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	port := itoaPort(origin.Listener.Addr().(*net.TCPAddr).Port)
	proxy := newConnectProxy(t, map[string]string{"dev.test": "127.0.0.1"})
	res := newFakeResolver()
	res.set("dev.test", "127.0.0.1")
	g := New(WithResolver(res), WithProxy(ProxyConfig{HTTPProxy: proxy.url(), HTTPSProxy: proxy.url()}))
	tg, err := g.Admit("http://dev.test:"+port+"/mcp", TransportHTTP, true)
	if err != nil {
		t.Fatal(err)
	}
	c := g.HTTPClient(tg)
	defer c.CloseIdleConnections()
	if _, err := get(t, c, tg.URL()); err != nil {
		t.Fatal(err)
	}
	if origin.hits.Load() != 1 || len(proxy.requests()) != 0 {
		t.Fatalf("origin saw %d, proxy saw %v", origin.hits.Load(), proxy.requests())
	}
	// Without the opt-in the direct path refuses it as it always has.
	g2 := New(WithResolver(res), WithProxy(ProxyConfig{HTTPProxy: proxy.url(), HTTPSProxy: proxy.url()}))
	t2, err := g2.Admit("https://dev.test:"+port+"/mcp", TransportHTTP, false)
	if err != nil {
		t.Fatal(err)
	}
	c2 := g2.HTTPClient(t2)
	defer c2.CloseIdleConnections()
	if _, err := get(t, c2, t2.URL()); err == nil || !strings.Contains(err.Error(), "E560") || len(proxy.requests()) != 0 {
		t.Fatalf("loopback without the opt-in: %v; proxy saw %v", err, proxy.requests())
	}
}

// A wss server on the private network, opted in, is reached through the
// proxy's CONNECT like any https server: HTTP/1.1 upgrade inside the
// verified TLS tunnel.
func TestProxyCarriesAWebsocket(t *testing.T) {
	ws := &countingServer{}
	ws.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws.hits.Add(1)
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		for { // echo until the client closes
			typ, msg, err := c.Read(r.Context())
			if err != nil || c.Write(r.Context(), typ, msg) != nil {
				return
			}
		}
	}))
	ws.Config.ErrorLog = log.New(io.Discard, "", 0)
	ws.StartTLS()
	t.Cleanup(ws.Close)
	pool := x509.NewCertPool()
	pool.AddCert(ws.Certificate())
	port := itoaPort(ws.Listener.Addr().(*net.TCPAddr).Port)
	proxy := newConnectProxy(t, map[string]string{"example.com": "127.0.0.1"})
	res := newFakeResolver()
	res.set("example.com", "192.168.1.10") // private here: the opt-in admits it
	g := New(WithResolver(res), WithRootCAs(pool), WithProxy(ProxyConfig{HTTPSProxy: proxy.url()}))
	tg, err := g.Admit("wss://example.com:"+port+"/ws", TransportWebsocket, true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := g.DialWebsocket(ctx, tg, nil)
	if err != nil {
		t.Fatalf("wss through the proxy: %v", err)
	}
	defer conn.CloseNow()
	if err := conn.Write(ctx, websocket.MessageText, []byte("ping")); err != nil {
		t.Fatal(err)
	}
	if _, msg, err := conn.Read(ctx); err != nil || string(msg) != "ping" {
		t.Fatalf("echo = %q, %v", msg, err)
	}
	if got := proxy.requests(); len(got) != 1 || got[0] != "CONNECT example.com:"+port || ws.hits.Load() != 1 {
		t.Fatalf("proxy saw %v, server %d", got, ws.hits.Load())
	}
}
