package host

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/netguard"
)

// BenchmarkRatioStaticHeaders measures one tools/call over Streamable HTTP
// on loopback to a server declared with two static headers (one holding a
// secret: injected on the request, redacted from the result) against the
// same call to the same server declared without headers, in the same run.
// Target: ≤ 1.05×.
func BenchmarkRatioStaticHeaders(b *testing.B) {
	base := serveHTTP(b, inprocServer())
	g := netguard.New()
	start := func(name string, hs []Header) (*Host, engine.ToolID) {
		t, err := g.Admit(base+"/mcp", TransportHTTP, true)
		if err != nil {
			b.Fatal(err)
		}
		h, err := Start(context.Background(), Options{Guard: g, Secrets: mapSecrets{"linear": bearerSecret},
			Servers: []Endpoint{{Name: name, Transport: TransportHTTP, Target: t, Headers: hs, BoundSecrets: []string{"linear"}}}})
		if err != nil {
			b.Fatal(err)
		}
		id, _ := h.Lookup("mcp_" + name + "_echo")
		return h, id
	}
	with, wid := start("with", bearerHeaders())
	defer with.Close()
	without, oid := start("without", nil)
	defer without.Close()
	args := json.RawMessage(`{"message":"hello"}`)
	ctx := context.Background()
	call := func(h *Host, id engine.ToolID) func() {
		return func() {
			if _, err := h.Call(ctx, id, args, engine.CallOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	ratio := interleave(b, call(with, wid), call(without, oid))
	b.ReportMetric(ratio, "ratio")
	b.ReportMetric(1.05, "target")
}
