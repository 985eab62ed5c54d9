package netguard

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
)

// flipResolver answers first, then second, for every later lookup: a DNS
// rebinding attacker's resolver.
type flipResolver struct {
	first, second []netip.Addr
	calls         atomic.Int64
}

func (f *flipResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	if f.calls.Add(1) == 1 {
		return f.first, nil
	}
	return f.second, nil
}

func addrs(s ...string) []netip.Addr {
	out := make([]netip.Addr, len(s))
	for i, a := range s {
		out[i] = netip.MustParseAddr(a)
	}
	return out
}

func TestDNSRebindRefusedAtTheDial(t *testing.T) {
	cases := []struct {
		name          string
		url           string
		local         bool
		first, second []netip.Addr
		firstDial     string
		code          fault.Code
	}{
		{"public then loopback", "https://rebind.example.com/mcp", false, addrs("93.184.215.14"), addrs("127.0.0.1"), "93.184.215.14:443", CodePrivateAddress},
		{"public then metadata", "https://rebind.example.com/mcp", false, addrs("93.184.215.14"), addrs("169.254.169.254"), "93.184.215.14:443", CodeMetadata},
		{"public then private among public", "https://rebind.example.com/mcp", false, addrs("93.184.215.14"), addrs("93.184.215.14", "10.0.0.1"), "93.184.215.14:443", CodeMixedResolution},
		{"local then metadata", "http://rebind.example.com:4000/", true, addrs("127.0.0.1"), addrs("169.254.169.254"), "127.0.0.1:4000", CodeMetadata},
		{"local then public", "http://rebind.example.com:4000/", true, addrs("10.0.0.7"), addrs("93.184.215.14"), "10.0.0.7:4000", CodeLocalResolvedPublic},
		{"local then mapped loopback", "http://rebind.example.com:4000/", true, addrs("127.0.0.1"), addrs("::ffff:127.0.0.1"), "127.0.0.1:4000", CodeSpecialAddress},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := &flipResolver{first: c.first, second: c.second}
			rec := &recordingDialer{}
			g := New(WithResolver(res), WithDialer(rec))
			tg, err := g.Admit(c.url, TransportHTTP, c.local)
			if err != nil {
				t.Fatal(err)
			}
			if err := connect(g, tg); !errors.Is(err, errFakeDial) {
				t.Fatalf("first dial: %v, want the fake dialer's error", err)
			}
			err = connect(g, tg)
			if r, ok := AsRefusal(err); !ok || r.Code() != c.code {
				t.Fatalf("second dial: %v, want %s", err, c.code)
			}
			if got := rec.recorded(); len(got) != 1 || got[0] != c.firstDial {
				t.Fatalf("dialled %q, want only %q", got, c.firstDial)
			}
			if n := res.calls.Load(); n != 2 {
				t.Fatalf("resolved %d times for 2 dials, want exactly one resolution per dial", n)
			}
		})
	}
}

// The same attack against a real loopback server: the first connection is
// served, the name then resolves to the metadata address, and the next
// connection is refused before any packet leaves.
func TestDNSRebindAgainstLoopbackServer(t *testing.T) {
	s := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	port := s.Listener.Addr().(*net.TCPAddr).Port
	res := &flipResolver{first: addrs("127.0.0.1"), second: addrs("169.254.169.254")}
	g := New(WithResolver(res))
	tg, err := g.Admit("http://mcp.test:"+itoaPort(port)+"/mcp", TransportHTTP, true)
	if err != nil {
		t.Fatal(err)
	}
	c := g.HTTPClient(tg)
	defer c.CloseIdleConnections()
	if _, err := get(t, c, tg.URL()); err != nil {
		t.Fatalf("first request: %v", err)
	}
	c.CloseIdleConnections() // force a new dial
	_, err = get(t, c, tg.URL())
	if r, ok := AsRefusal(err); !ok || r.Code() != CodeMetadata {
		t.Fatalf("second request: %v, want %s", err, CodeMetadata)
	}
	if n := s.hits.Load(); n != 1 {
		t.Fatalf("server saw %d requests, want 1", n)
	}
}

func itoaPort(p int) string { return strconv.Itoa(p) }

// The hostname travels as SNI and the certificate is verified against it,
// while the connection goes to the pinned loopback address.
func TestTLSKeepsHostnameAsSNIAndVerifies(t *testing.T) {
	var sni atomic.Value
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sni.Store(r.TLS.ServerName)
		w.Header().Set("X-Proto", r.Proto)
		w.WriteHeader(204)
	}))
	srv.EnableHTTP2 = true
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes below are expected
	srv.StartTLS()
	defer srv.Close()
	port := itoaPort(srv.Listener.Addr().(*net.TCPAddr).Port)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())

	res := newFakeResolver()
	res.set("example.com", "127.0.0.1") // the test certificate's DNS name
	res.set("wrong.test", "127.0.0.1")

	g := New(WithResolver(res), WithRootCAs(pool))
	tg, err := g.Admit("https://example.com:"+port+"/mcp", TransportHTTP, true)
	if err != nil {
		t.Fatal(err)
	}
	c := g.HTTPClient(tg)
	defer c.CloseIdleConnections()
	resp, err := get(t, c, tg.URL())
	if err != nil {
		t.Fatalf("pinned TLS request: %v", err)
	}
	if got := sni.Load(); got != "example.com" {
		t.Fatalf("SNI = %v, want example.com", got)
	}
	if resp.ProtoMajor != 2 {
		t.Errorf("negotiated %s, want HTTP/2 over the pinned connection", resp.Proto)
	}

	// A name the certificate does not cover fails verification: it is a
	// connection failure, not a guard refusal, and no request is served.
	before := sni.Load()
	wrong, _ := g.Admit("https://wrong.test:"+port+"/mcp", TransportHTTP, true)
	cw := g.HTTPClient(wrong)
	defer cw.CloseIdleConnections()
	_, err = get(t, cw, wrong.URL())
	var certErr *tls.CertificateVerificationError
	if !errors.As(err, &certErr) {
		t.Fatalf("wrong name: %v, want a certificate verification error", err)
	}
	if _, ok := AsRefusal(err); ok {
		t.Fatalf("a TLS failure was reported as a guard refusal: %v", err)
	}
	if sni.Load() != before {
		t.Fatal("a request was served under the wrong name")
	}

	// Without the test root (system roots only) verification fails too.
	gs := New(WithResolver(res))
	ts, _ := gs.Admit("https://example.com:"+port+"/mcp", TransportHTTP, true)
	cs := gs.HTTPClient(ts)
	defer cs.CloseIdleConnections()
	if _, err := get(t, cs, ts.URL()); !errors.As(err, &certErr) {
		t.Fatalf("untrusted root: %v, want a certificate verification error", err)
	}
}

// A guard given no proxy (WithProxy) never uses one, whatever the process
// environment says: the command passes the environment's proxy in.
func TestNoProxy(t *testing.T) {
	proxy := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(502) })
	origin := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("HTTPS_PROXY", proxy.URL)
	t.Setenv("ALL_PROXY", proxy.URL)
	t.Setenv("NO_PROXY", "")
	res := newFakeResolver()
	res.set("mcp.test", "127.0.0.1") // not "localhost": a proxy would not exempt it
	g := New(WithResolver(res))
	tg, err := g.Admit("http://mcp.test:"+itoaPort(origin.Listener.Addr().(*net.TCPAddr).Port)+"/", TransportHTTP, true)
	if err != nil {
		t.Fatal(err)
	}
	c := g.HTTPClient(tg)
	defer c.CloseIdleConnections()
	if _, err := get(t, c, tg.URL()); err != nil {
		t.Fatal(err)
	}
	if proxy.hits.Load() != 0 || origin.hits.Load() != 1 {
		t.Fatalf("proxy saw %d, origin saw %d", proxy.hits.Load(), origin.hits.Load())
	}
	if rt := c.Transport.(*guardedTransport); rt.base.Proxy != nil || rt.base.DialTLSContext != nil || rt.base.TLSClientConfig.InsecureSkipVerify {
		t.Fatal("the guarded transport has a proxy, a custom TLS dial or verification off")
	}
}

// The Control hook is the second check: a connect to anything but the
// address the same dial validated is refused at the socket.
func TestControlHookRefusesUnpinnedConnects(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	addr := ln.Addr().String()
	d := newPinnedDialer(newRanges())

	// Used outside the guard: no pin travels with the dial.
	if _, err := d.DialContext(context.Background(), "tcp", addr); !isCode(err, CodePinMismatch) {
		t.Fatalf("unpinned dial: %v, want %s", err, CodePinMismatch)
	}
	// A pin for another address.
	tg := &Target{local: true, host: hostForm{name: "x"}, port: 1}
	other := context.WithValue(context.Background(), pinKey{}, &pinSet{t: tg, addrs: []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:1")}})
	if _, err := d.DialContext(other, "tcp", addr); !isCode(err, CodePinMismatch) {
		t.Fatalf("mismatched pin: %v, want %s", err, CodePinMismatch)
	}
	// The right pin, but the target has no opt-in: the range policy refuses.
	ap := netip.MustParseAddrPort(addr)
	noOptIn := &Target{host: hostForm{name: "x"}, port: ap.Port()}
	ctx := context.WithValue(context.Background(), pinKey{}, &pinSet{t: noOptIn, addrs: []netip.AddrPort{ap}})
	if _, err := d.DialContext(ctx, "tcp", addr); !isCode(err, CodePinMismatch) {
		t.Fatalf("pinned but not opted in: %v, want %s", err, CodePinMismatch)
	}
	// A forged pin on a metadata address is refused by the range policy.
	meta := netip.MustParseAddrPort("169.254.169.254:80")
	mctx := context.WithValue(context.Background(), pinKey{}, &pinSet{t: tg, addrs: []netip.AddrPort{meta}})
	if err := d.control(mctx, "tcp4", meta.String(), nil); !isCode(err, CodePinMismatch) {
		t.Fatalf("forged metadata pin: %v", err)
	}
	if err := d.control(mctx, "udp4", meta.String(), nil); !isCode(err, CodePinMismatch) {
		t.Fatalf("udp: %v", err)
	}
	// The right pin with the opt-in connects.
	okCtx := context.WithValue(context.Background(), pinKey{}, &pinSet{t: &Target{local: true}, addrs: []netip.AddrPort{ap}})
	conn, err := d.DialContext(okCtx, "tcp", addr)
	if err != nil {
		t.Fatalf("validated dial: %v", err)
	}
	conn.Close()
	select {
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("the validated dial never arrived")
	}
	ln.Close()
	<-done
	if n := len(accepted); n != 0 {
		t.Fatalf("%d refused dials reached the listener", n)
	}
}

func isCode(err error, code fault.Code) bool {
	r, ok := AsRefusal(err)
	return ok && r.Code() == code
}

func TestTargetsTheGuardDidNotAdmit(t *testing.T) {
	rec := &recordingDialer{}
	g := New(WithResolver(newFakeResolver()), WithDialer(rec))
	other := New(WithResolver(newFakeResolver()), WithDialer(rec))
	fromOther, _ := other.Admit("http://127.0.0.1:4000/", TransportHTTP, true)
	web, _ := g.Admit("ws://127.0.0.1:4000/", TransportWebsocket, true)
	plain, _ := g.Admit("http://127.0.0.1:4000/", TransportHTTP, true)

	for name, tg := range map[string]*Target{"nil": nil, "zero": {}, "other guard": fromOther, "websocket": web} {
		c := g.HTTPClient(tg)
		_, err := get(t, c, "http://127.0.0.1:4000/")
		if !isCode(err, CodeNotAdmitted) {
			t.Errorf("HTTPClient(%s): %v, want %s", name, err, CodeNotAdmitted)
		}
	}
	for name, tg := range map[string]*Target{"nil": nil, "zero": {}, "http": plain} {
		_, _, err := g.DialWebsocket(context.Background(), tg, nil)
		if !isCode(err, CodeNotAdmitted) {
			t.Errorf("DialWebsocket(%s): %v, want %s", name, err, CodeNotAdmitted)
		}
	}
	if got := rec.recorded(); len(got) != 0 {
		t.Fatalf("dialled %q", got)
	}
}

func TestRefusalRendering(t *testing.T) {
	err := AdmitURL("wss://api.example.com/ws?token=secret", TransportWebsocket, false)
	r, ok := AsRefusal(err)
	if !ok || r.Code() != CodeRemoteWebsocket || r.ExitCode() != 2 {
		t.Fatalf("%v", err)
	}
	d := r.ErrorData().(Data)
	if d.Reason != ReasonRemoteWebsocket || d.Address != "api.example.com:443" || d.URL != "wss://api.example.com/ws" {
		t.Fatalf("data = %+v", d)
	}
	if !strings.Contains(r.Remedy, `transport = "http"`) || !strings.Contains(r.Remedy, "https://api.example.com/ws") {
		t.Fatalf("remedy does not name http: %q", r.Remedy)
	}
	var b strings.Builder
	if err := r.WriteHuman(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "relavium: E559: refused: ") { // like every relavium error
		t.Errorf("human text starts %q", b.String())
	}
	for _, want := range []string{"E559", "api.example.com:443", "remedy", "Streamable HTTP"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("human text lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String()+err.Error(), "secret") {
		t.Fatal("a query credential leaked into the refusal")
	}
	// Userinfo never appears in a refusal.
	err = AdmitURL("https://alice:hunter2@api.example.com/", TransportHTTP, false)
	if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.(*Error).URL, "hunter2") {
		t.Fatalf("userinfo leaked: %v", err)
	}
	err = AdmitURL("https://alice:hunter2@[::1/", TransportHTTP, false)
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("parse error leaked userinfo: %v", err)
	}
}
