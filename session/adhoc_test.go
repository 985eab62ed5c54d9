package session

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/internal/testbin"
)

// Ad-hoc servers join a live session while it runs (the workbench's
// palette): a stdio one through the same consent decision as a declared
// one (pending until approved, never remembered), a url one admitted by
// the guard with its local opt-in. The session is read by connects and
// the catalogue at the same time (go test -race).
func TestLiveAddsAdhocServers(t *testing.T) {
	ctx := context.Background()
	opts := testOptions(t)
	opts.Environ = []string{"HOME=" + t.TempDir()}
	s := New(opts, []config.Server{stdio(t, "a")})
	ds, _, err := s.Decide()
	if err != nil {
		t.Fatal(err)
	}
	s.Decider().ApproveOnce(ds[0].Server.Digest)
	lv, err := s.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Close()

	// Readers run while servers are added: the declared list is guarded.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				lv.Catalogue()
				_ = s.Servers()
				_, _, _ = lv.Session().Decide()
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()
	if err := lv.Connect(ctx, "a"); err != nil {
		t.Fatal(err)
	}

	bin := testbin.Relavium(t)
	srv, err := ParseAdhoc(bin+" demo-server", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Not approved yet: the connect fails as a pending declared one does.
	name, err := lv.AddAdhoc(ctx, srv)
	if name != "adhoc" || codeOf(err) != consent.CodeConsentRequired {
		t.Fatalf("unapproved ad-hoc stdio server: %q %v", name, err)
	}
	r, err := lv.Session().Resolved(name)
	if err != nil {
		t.Fatal(err)
	}
	// Remember is never written for an ad-hoc server: it holds for the session.
	if err := lv.Session().Record(r, ApproveRemember); err != nil {
		t.Fatal(err)
	}
	if grants, _ := consent.Open(opts.Home).Fold(); grants.Len() != 0 {
		t.Errorf("an ad-hoc server's approval wrote %d grants", grants.Len())
	}
	if err := lv.Connect(ctx, name); err != nil {
		t.Fatal(err)
	}
	if _, ok := lv.Host().Lookup("mcp_adhoc_echo"); !ok {
		t.Fatal("the ad-hoc stdio server's tools are not in the session")
	}

	url := startDemoHTTP(t, bin)
	srv, err = ParseAdhoc(url+" --allow-local-endpoint", "")
	if err != nil {
		t.Fatal(err)
	}
	name, err = lv.AddAdhoc(ctx, srv)
	if name != "adhoc-2" || err != nil {
		t.Fatalf("ad-hoc url server: %q %v", name, err)
	}
	id, ok := lv.Host().Lookup("mcp_adhoc-2_echo")
	if !ok {
		tools, _ := lv.Catalogue()
		t.Fatalf("the ad-hoc url server's echo is not in the session: %v", tools)
	}
	res, err := lv.Host().Call(ctx, id, []byte(`{"message":"hi"}`), engine.CallOptions{})
	if err != nil || res.IsError {
		t.Fatalf("echo over the ad-hoc url server: %v %+v", err, res)
	}
	var servers []string
	for _, st := range lv.Host().Servers() {
		servers = append(servers, st.Name+"="+st.State)
	}
	if got := strings.Join(servers, " "); !strings.Contains(got, "a=ready") || !strings.Contains(got, "adhoc=ready") || !strings.Contains(got, "adhoc-2=ready") {
		t.Errorf("servers = %s", got)
	}
}

// A url the guard refuses (a loopback address without the opt-in) is
// refused with the guard's code before anything is dialled, its remedy in
// the flag's words.
func TestLiveRefusesAnAdhocURLBeforeDialling(t *testing.T) {
	var conns atomic.Int32
	ts := httptest.NewUnstartedServer(http.NotFoundHandler())
	ts.Config.ConnState = func(net.Conn, http.ConnState) { conns.Add(1) }
	ts.Start()
	defer ts.Close()
	ctx := context.Background()
	lv, err := New(testOptions(t), nil).Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Close()
	srv, err := ParseAdhoc(ts.URL+"/mcp", "")
	if err != nil {
		t.Fatal(err)
	}
	name, err := lv.AddAdhoc(ctx, srv)
	if codeOf(err) != netguard.CodePrivateAddress || !strings.Contains(err.Error()+remedyOf(err), "--allow-local-endpoint") {
		t.Fatalf("refused url %s: %v (%s)", name, err, remedyOf(err))
	}
	if n := conns.Load(); n != 0 {
		t.Errorf("the refused url was dialled (%d connections)", n)
	}
	if lv.Host().Has(name) {
		t.Error("the refused server is in the host")
	}
}

func TestParseAdhoc(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		in, transport, url, command string
		args                        []string
		local                       bool
	}{
		{in: "https://example.com/mcp", transport: host.TransportHTTP, url: "https://example.com/mcp"},
		{in: "  wss://example.com/ws ", transport: host.TransportWebsocket, url: "wss://example.com/ws"},
		{in: "--allow-local-endpoint http://127.0.0.1:8080/mcp", transport: host.TransportHTTP, url: "http://127.0.0.1:8080/mcp", local: true},
		{in: "http://localhost/mcp --allow-local-endpoint", transport: host.TransportHTTP, url: "http://localhost/mcp", local: true},
		{in: "npx -y  @modelcontextprotocol/server-everything", transport: host.TransportStdio, command: "npx", args: []string{"-y", "@modelcontextprotocol/server-everything"}},
		{in: "prog --allow-local-endpoint", transport: host.TransportStdio, command: "prog", args: []string{"--allow-local-endpoint"}},
		{in: "'a b' c", transport: host.TransportStdio, command: "'a", args: []string{"b'", "c"}}, // no shell: blanks split
	} {
		srv, err := ParseAdhoc(tc.in, dir)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if srv.Name != AdhocName || srv.Transport != tc.transport || srv.URL != tc.url || srv.Command != tc.command ||
			strings.Join(srv.Args, "|") != strings.Join(tc.args, "|") || srv.AllowLocalEndpoint != tc.local {
			t.Errorf("%q = %+v", tc.in, srv)
		}
		if tc.transport == host.TransportStdio && srv.Dir != dir {
			t.Errorf("%q runs in %q", tc.in, srv.Dir)
		}
	}
	for _, in := range []string{"", "   ", "a\x00b", "ftp://example.com", "https://a.example b", strings.Repeat("x", MaxAdhocLine+1), "--allow-local-endpoint"} {
		if _, err := ParseAdhoc(in, dir); codeOf(err) != CodeBadAdhoc {
			t.Errorf("%q: %v, want %s", in, err, CodeBadAdhoc)
		}
	}
}

func FuzzParseAdhoc(f *testing.F) {
	for _, s := range []string{"https://example.com/mcp", "ws://127.0.0.1:1 --allow-local-endpoint", "npx -y x", "", "ftp://x", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		srv, err := ParseAdhoc(in, "/d")
		if err != nil {
			if codeOf(err) != CodeBadAdhoc {
				t.Fatalf("%q: %v", in, err)
			}
			return
		}
		if srv.Transport == host.TransportStdio && (srv.Command == "" || strings.ContainsAny(srv.Command, " \t\n")) {
			t.Fatalf("%q: command %q", in, srv.Command)
		}
		if srv.Transport != host.TransportStdio && srv.URL == "" {
			t.Fatalf("%q: no url", in)
		}
	})
}

// startDemoHTTP runs `relavium demo-server --transport http --port 0` until
// the test ends and returns its url.
func startDemoHTTP(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin, "demo-server", "--transport", "http", "--port", "0")
	cmd.Env = []string{"HOME=" + t.TempDir()}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "relavium demo-server: listening on "); ok {
				select {
				case urls <- u:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		_ = cmd.Wait()
	})
	select {
	case u := <-urls:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("the demo server did not say where it listens")
	}
	return ""
}
