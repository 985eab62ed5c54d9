package netguard

import (
	"strings"
	"testing"
)

// FuzzProxyConfig reads arbitrary HTTPS_PROXY / NO_PROXY settings against
// admitted targets: never a panic, a refusal is E596 with exit 2 and never
// shows the proxy's password, a loopback target is never proxied and a
// NO_PROXY of "*" proxies nothing.
func FuzzProxyConfig(f *testing.F) {
	f.Add("http://u:pw-secret@proxy.example:3128", "example.com,.corp,10.0.0.0/8", "https://api.example.com/mcp")
	f.Add("proxy.example:8080", "*.example.com:443", "https://x.example.com./")
	f.Add("socks5://pw-secret@h:1", "[::1]:8080,::1", "http://[::1]:8080/")
	f.Add("https://[fe80::1%25eth0]:3128", "", "https://10.1.2.3/")
	f.Fuzz(func(t *testing.T, proxy, noProxy, target string) {
		g := New(WithProxy(ProxyConfig{HTTPSProxy: proxy, HTTPProxy: proxy, NoProxy: noProxy}))
		tg, err := g.Admit(target, TransportHTTP, true)
		if err != nil {
			r, ok := AsRefusal(err)
			if !ok {
				t.Fatalf("not a refusal: %v", err)
			}
			if r.Code() == CodeProxy && (r.ExitCode() != 2 || strings.Contains(err.Error(), "pw-secret")) {
				t.Fatalf("proxy refusal %v (exit %d)", err, r.ExitCode())
			}
			return
		}
		u, e := g.proxy.proxyFor(tg)
		if e != nil {
			t.Fatalf("Admit accepted a target whose proxy is refused: %v", e)
		}
		if u != nil && (tg.loopback() || strings.TrimSpace(noProxy) == "*") {
			t.Fatalf("%s proxied through %s with NO_PROXY=%q", target, shownProxy(u), noProxy)
		}
		if u != nil && u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("proxy scheme %q", u.Scheme)
		}
	})
}
