package host

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/wire"
)

// Every network transport's HTTP exchanges reach the hub for the network
// view — the Streamable HTTP posts, the SSE stream, the websocket
// handshake — with their status and the static headers by name only; the
// hub holds no header value, in an exchange or a recorded message (the
// server repeats the credentials it received).
func TestExchangesOfEveryNetworkTransport(t *testing.T) {
	var b bearerMux
	base := b.serve(t, leakServer())
	ws := "ws" + strings.TrimPrefix(base, "http")
	for _, tc := range []struct {
		transport, url string
		status         int
		rpc            string
	}{
		{TransportHTTP, base + "/mcp", http.StatusOK, "initialize"},
		{TransportSSE, base + "/sse", http.StatusOK, ""},
		{TransportWebsocket, ws + "/ws", http.StatusSwitchingProtocols, ""},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			g := netguard.New()
			hub := wire.NewHub("", nil)
			srv := networkServer(t, g, "n", tc.transport, tc.url)
			srv.Headers = bearerHeaders()
			srv.BoundSecrets = []string{"linear", "t"} // bound by the session in use
			h := startHost(t, Options{Guard: g, Emitter: &recorder{}, Wire: hub, Secrets: mapSecrets{"linear": bearerSecret}, Servers: []Endpoint{srv}})
			_, _ = callTool(t, h, context.Background(), "mcp_n_leak", `{}`, engine.CallOptions{})
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}
			xs := hub.Exchanges()
			if len(xs) == 0 {
				t.Fatal("no exchange recorded")
			}
			first := xs[0]
			if first.Server != "n" || first.Status != tc.status || first.RPC != tc.rpc || first.TotalMicros <= 0 {
				t.Errorf("first exchange: %+v", first)
			}
			if strings.Join(first.Headers, ",") != "Authorization,X-Api-Key" {
				t.Errorf("header names: %v", first.Headers)
			}
			all, _ := json.Marshal(xs)
			recs, _ := json.Marshal(hub.Recent())
			for _, secret := range []string{bearerSecret, apiKeyValue} {
				if strings.Contains(string(all)+string(recs), secret) {
					t.Errorf("a header value reached the hub:\n%s\n%s", all, recs)
				}
			}
		})
	}
}
