package session

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/oauth"
)

// The session's guard takes its proxy from the environment the session was
// given: an unusable HTTPS_PROXY refuses an https server before anything
// is dialled (E596, exit 2), for Start and for the live session alike.
func TestSessionGuardReadsTheProxyOfItsEnvironment(t *testing.T) {
	env := map[string]string{"HTTPS_PROXY": "socks5://127.0.0.1:1080"}
	opts := testOptions(t)
	opts.LookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	srv := config.Server{Name: "remote", Transport: host.TransportHTTP, URL: "https://mcp.example.com/mcp"}
	_, err := New(opts, []config.Server{srv}).Start(context.Background(), nil)
	if codeOf(err) != netguard.CodeProxy || fault.ExitOf(err) != fault.ExitUsage {
		t.Fatalf("start = %v (exit %d), want %s exit 2", err, fault.ExitOf(err), netguard.CodeProxy)
	}
}

// A loopback server is reached directly even with a proxy set (and a
// proxy that would fail anything it got).
func TestSessionLoopbackServerIsNeverProxied(t *testing.T) {
	var proxied atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer proxy.Close()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{HasTools: true})
	origin := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer origin.Close()
	env := map[string]string{"HTTP_PROXY": proxy.URL, "HTTPS_PROXY": proxy.URL}
	opts := testOptions(t)
	opts.LookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	port := origin.Listener.Addr().(*net.TCPAddr).Port
	srv := config.Server{Name: "local", Transport: host.TransportHTTP, URL: "http://localhost:" + strconv.Itoa(port) + "/mcp", AllowLocalEndpoint: true}
	h, err := New(opts, []config.Server{srv}).Start(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = h.Close()
	if proxied.Load() != 0 {
		t.Fatalf("the proxy saw %d requests for a loopback server", proxied.Load())
	}
}

// auth login reaches the server (and its authorization server) through
// the same proxy settings as every other connect.
func TestLoginUsesTheSessionProxy(t *testing.T) {
	env := map[string]string{"HTTPS_PROXY": "socks5://127.0.0.1:1080"}
	opts := testOptions(t)
	opts.LookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	srv := config.Server{Name: "remote", Transport: host.TransportHTTP, URL: "https://mcp.example.com/mcp"}
	_, err := New(opts, []config.Server{srv}).Login(context.Background(), "remote", oauth.Interactive{})
	if codeOf(err) != netguard.CodeProxy {
		t.Fatalf("login = %v, want %s", err, netguard.CodeProxy)
	}
}
