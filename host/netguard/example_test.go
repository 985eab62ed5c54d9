package netguard_test

import (
	"context"
	"fmt"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/host/netguard"
)

// How host connects a declared Streamable HTTP (or legacy SSE) server: admit
// the authored url, then build the SDK transport on the guard's client.
func ExampleGuard_HTTPClient() {
	g := netguard.New()
	t, err := g.Admit("https://mcp.example.com/mcp", netguard.TransportHTTP, false)
	if err != nil {
		fmt.Println(err) // an *netguard.Error: code, reason, address, remedy
		return
	}
	hc := g.HTTPClient(t) // one per connection; CloseIdleConnections at teardown
	defer hc.CloseIdleConnections()
	transport := &mcp.StreamableClientTransport{
		Endpoint:     t.URL(),
		HTTPClient:   hc,
		MaxEventSize: netguard.MessageLimit, // bound the SDK's own line buffer too
	}
	_ = transport // client.Connect(ctx, transport, ...); on failure report t.Refusal() if set
}

// How host opens a local websocket server (allow_local_endpoint required).
func ExampleGuard_DialWebsocket() {
	g := netguard.New()
	t, err := g.Admit("ws://localhost:4000/ws", netguard.TransportWebsocket, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	conn, _, err := g.DialWebsocket(context.Background(), t, &websocket.DialOptions{})
	if err != nil {
		if r, ok := netguard.AsRefusal(err); ok {
			fmt.Println(r.Code(), r.Address)
		}
		return
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20) // websocket has the application bounds only
}

func ExampleAdmitURL() {
	err := netguard.AdmitURL("wss://mcp.example.com/ws", netguard.TransportWebsocket, false)
	r, _ := netguard.AsRefusal(err)
	fmt.Println(r.Code(), r.Reason, r.ExitCode())
	// Output: E559 remote-websocket 2
}
