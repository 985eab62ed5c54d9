package host

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
)

// server-everything offers logging, completions and resource subscriptions:
// the level is set, its completable prompt completes (with context), and a
// subscribed resource's updates are reported once its updates are switched
// on.
func TestPeerServerEverythingClientRequests(t *testing.T) {
	p := requirePeers(t)
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Environ: os.Environ(), Servers: []Endpoint{peerServer(t, "everything", p.node, p.everything, "stdio")}})
	ctx := context.Background()
	if err := h.SetLogLevel(ctx, "everything", "debug"); err != nil {
		t.Fatalf("setLevel: %v", err)
	}

	got, err := h.Complete(ctx, "everything", CompletionRef{Type: RefPrompt, Name: "completable-prompt"}, "department", "E", nil)
	if err != nil || strings.Join(got.Values, ",") != "Engineering" {
		t.Fatalf("department E: %+v, %v", got, err)
	}
	got, err = h.Complete(ctx, "everything", CompletionRef{Type: RefPrompt, Name: "completable-prompt"}, "name", "", map[string]string{"department": "Sales"})
	if err != nil || strings.Join(got.Values, ",") != "David,Eve,Frank" {
		t.Fatalf("name for Sales: %+v, %v", got, err)
	}

	list, err := h.Resources(ctx, "everything")
	if err != nil || len(list.Resources) == 0 {
		t.Fatalf("resources: %+v, %v", list, err)
	}
	uri := list.Resources[0].URI
	if err := h.Subscribe(ctx, "everything", uri); err != nil {
		t.Fatalf("subscribe %s: %v", uri, err)
	}
	callText(t, h, "mcp_everything_toggle-subscriber-updates", `{}`)
	waitFor(t, func() bool {
		for _, e := range rec.ofType(engine.EventResourceUpdated) {
			if d := e.Data.(ResourceUpdatedData); d.Server == "everything" && d.URI == uri {
				return true
			}
		}
		return false
	})
	if err := h.Unsubscribe(ctx, "everything", uri); err != nil {
		t.Fatalf("unsubscribe: %v", err)
	}
}
