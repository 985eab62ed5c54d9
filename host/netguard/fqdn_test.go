package netguard

import (
	"crypto/x509"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// A fully qualified name (one trailing dot, as DNS tools print it) is the
// host its dotless form is: admitted, resolved, verified and scoped alike.

func TestFQDNReachesALoopbackServerWithTheSystemResolver(t *testing.T) {
	admitted := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	other := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	port := itoaPort(admitted.Listener.Addr().(*net.TCPAddr).Port)
	raw := "http://localhost.:" + port + "/mcp"
	if err := AdmitURL(raw, TransportHTTP, false); err == nil || !strings.Contains(err.Error(), "localhost.:"+port) {
		t.Fatalf("without the opt-in: %v, want a refusal naming localhost.:%s", err, port)
	} else if r, _ := AsRefusal(err); r.Code() != CodePrivateAddress {
		t.Fatalf("without the opt-in: %v, want %s", err, CodePrivateAddress)
	}
	g := New()
	tg, err := g.Admit(raw, TransportHTTP, true)
	if err != nil {
		t.Fatal(err)
	}
	if tg.HostPort() != "localhost.:"+port || tg.Redacted() != raw || tg.URL() != "http://localhost:"+port+"/mcp" {
		t.Errorf("the target is %s (%s, connecting %s), want the authored host:port shown and the dotless url connected", tg.HostPort(), tg.Redacted(), tg.URL())
	}
	c := g.HTTPClient(tg)
	defer c.CloseIdleConnections()
	for _, u := range []string{raw, "http://localhost:" + port + "/mcp", "http://LOCALHOST.:" + port + "/x"} {
		if _, err := get(t, c, u); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	// The opt-in is this host:port exactly: another port, another name or a
	// second trailing dot is outside it.
	for _, u := range []string{
		"http://localhost.:" + itoaPort(other.Listener.Addr().(*net.TCPAddr).Port) + "/mcp",
		"http://127.0.0.1:" + port + "/mcp",
		"http://localhost..:" + port + "/mcp",
	} {
		_, err := get(t, c, u)
		if r, ok := AsRefusal(err); !ok || r.Code() != CodeScope {
			t.Fatalf("%s: %v, want %s", u, err, CodeScope)
		}
	}
	if admitted.hits.Load() != 3 || other.hits.Load() != 0 {
		t.Fatalf("admitted saw %d, other saw %d", admitted.hits.Load(), other.hits.Load())
	}
}

func TestFQDNKeepsTLSVerification(t *testing.T) {
	var sni atomic.Value
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sni.Store(r.TLS.ServerName)
		w.WriteHeader(204)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	port := itoaPort(srv.Listener.Addr().(*net.TCPAddr).Port)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	res := newFakeResolver()
	res.set("example.com", "127.0.0.1") // the test certificate's name
	res.set("wrong.test", "127.0.0.1")
	g := New(WithResolver(res), WithRootCAs(pool))

	tg, err := g.Admit("https://example.com.:"+port+"/mcp", TransportHTTP, true)
	if err != nil {
		t.Fatal(err)
	}
	c := g.HTTPClient(tg)
	defer c.CloseIdleConnections()
	if _, err := get(t, c, tg.URL()); err != nil {
		t.Fatalf("https to the fully qualified name: %v", err)
	}
	if got := sni.Load(); got != "example.com" {
		t.Errorf("SNI = %v, want example.com", got)
	}
	wrong, err := g.Admit("https://wrong.test.:"+port+"/mcp", TransportHTTP, true)
	if err != nil {
		t.Fatal(err)
	}
	cw := g.HTTPClient(wrong)
	defer cw.CloseIdleConnections()
	if _, err := get(t, cw, wrong.URL()); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("a name the certificate does not cover: %v, want a verification failure", err)
	}
}
