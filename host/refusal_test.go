package host

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/netguard"
)

// fixedResolver answers every name with the same addresses.
type fixedResolver []netip.Addr

func (r fixedResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return r, nil
}

// A server the guard refused while connecting is reported, in its own row
// (`mcp ls --json`), with the reason and the address that was refused.
func TestRefusedServerRowNamesTheRefusedAddress(t *testing.T) {
	g := netguard.New(netguard.WithResolver(fixedResolver{netip.MustParseAddr("10.1.2.3")}))
	target, err := g.Admit("https://internal.example/mcp", TransportHTTP, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Start(context.Background(), Options{Guard: g, Servers: []Endpoint{{Name: "in", Transport: TransportHTTP, Target: target}}})
	var se *StartError
	if !errors.As(err, &se) || len(se.Servers) != 1 {
		t.Fatalf("err = %v", err)
	}
	row := se.Servers[0]
	if row.ErrorCode != netguard.CodePrivateAddress || row.Refusal == nil {
		t.Fatalf("row = %+v", row)
	}
	if row.Refusal.Address != "10.1.2.3" || row.Refusal.Reason != netguard.ReasonPrivateAddress || row.Refusal.Remedy == "" {
		t.Errorf("refusal = %+v", row.Refusal)
	}
	b, _ := json.Marshal(row)
	if !strings.Contains(string(b), `"refusal":{"reason":"private-address","url":"https://internal.example/mcp","address":"10.1.2.3"`) {
		t.Errorf("json row = %s", b)
	}
}

// A response over the 4 MiB transport bound during a call fails that call
// with the guard's typed refusal (E566), never as an ordinary failure; over
// Streamable HTTP the session keeps working, over legacy SSE (where the
// bound breaks the session's one stream) the server is failed with it.
func TestMessageBoundDuringACallIsTheGuardsRefusal(t *testing.T) {
	s := inprocServer()
	s.AddTool(&mcp.Tool{Name: "huge", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", netguard.MessageLimit+1)}}}, nil
		})
	base := serveHTTP(t, s)
	for _, tc := range []struct{ transport, url string }{{TransportHTTP, base + "/mcp"}, {TransportSSE, base + "/sse"}} {
		t.Run(tc.transport, func(t *testing.T) {
			g := netguard.New()
			h := startHost(t, Options{Guard: g, Servers: []Endpoint{networkServer(t, g, "n", tc.transport, tc.url)}})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := callTool(t, h, ctx, "mcp_n_huge", `{}`, engine.CallOptions{})
			if codeOf(err) != netguard.CodeMessageBound {
				t.Fatalf("call over the bound: %v, want %s", err, netguard.CodeMessageBound)
			}
			if _, ok := netguard.AsRefusal(err); !ok {
				t.Errorf("the call's error does not carry the refusal: %v", err)
			}
			if tc.transport == TransportHTTP {
				if got := callText(t, h, "mcp_n_echo", `{"message":"after"}`); got != "after" {
					t.Errorf("echo after the refusal = %q", got)
				}
				if r := h.conns[0].stream.refused(); r != nil {
					t.Errorf("a call's refusal was taken for the session stream's: %v", r)
				}
				if row := h.Servers()[0]; row.State != engine.StateReady {
					t.Errorf("server row after a refused call: %+v", row)
				}
				return
			}
			// The watcher marks the server failed as soon as it sees the
			// session end (asynchronously): wait for it, bounded.
			row := h.Servers()[0]
			for end := time.Now().Add(20 * time.Second); row.State != engine.StateFailed && time.Now().Before(end); row = h.Servers()[0] {
				time.Sleep(10 * time.Millisecond)
			}
			if row.State != engine.StateFailed || row.ErrorCode != netguard.CodeMessageBound || row.Refusal == nil {
				t.Errorf("server row after the stream broke: %+v", row)
			}
		})
	}
}

// idleSignIn is a sign-in that is never asked for: the server offers one
// (as every http server of a client file does, on a 401) but its own
// address is refused first.
type idleSignIn struct{}

func (idleSignIn) TokenSource(context.Context) (oauth2.TokenSource, error) { return nil, nil }
func (idleSignIn) Authorize(context.Context, *http.Request, *http.Response) error {
	return errors.New("no sign-in here")
}

// A server whose own address the guard refuses reads "refused by the
// network guard", with or without a sign-in behind it: "sign-in refused"
// is for an authorization server's url only.
func TestOwnAddressRefusalIsNoSignInRefusal(t *testing.T) {
	g := netguard.New(netguard.WithResolver(fixedResolver{netip.MustParseAddr("10.1.2.3")}))
	target, err := g.Admit("https://internal.example/mcp", TransportHTTP, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Start(context.Background(), Options{Guard: g, Servers: []Endpoint{{Name: "in", Transport: TransportHTTP, Target: target, OAuth: idleSignIn{}}}})
	var se *StartError
	if !errors.As(err, &se) || len(se.Servers) != 1 {
		t.Fatalf("err = %v", err)
	}
	row := se.Servers[0]
	if row.ErrorCode != netguard.CodePrivateAddress || strings.Contains(row.Error, "sign-in") || !strings.Contains(row.Error, "refused by the network guard") {
		t.Fatalf("row = %s %s", row.ErrorCode, row.Error)
	}
}
