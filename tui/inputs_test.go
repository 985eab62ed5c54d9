package tui

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/dialog"
)

// A server imported from a VS Code file whose input nothing holds fails
// its connect with E520; the workbench asks for the input (typed as dots,
// never shown), gives it to the session and connects again. Esc leaves the
// row failed with its reason.
func TestImportedInputIsAskedForAsASecret(t *testing.T) {
	f := newFake(t)
	f.addHTTP("perplexity")
	f.specs[0].Inputs = []backend.InputSpec{{ID: "perplexity-key", Description: "Perplexity API Key"}}
	f.connectErr["perplexity"] = &failure.Error{Base: fault.Base{ErrCode: failure.CodeSecretMissing, Msg: "env KEY needs {{secrets.perplexity-key}}, which is not set"}}
	f.setTools("perplexity", demoTools(), nil)
	h := newHarness(t, f, 120, 30)
	h.until("the secret prompt", func() bool { _, ok := h.m.topDialog().(*dialog.Secret); return ok })
	frame := strings.Join(strings.Fields(h.view()), " ")
	if !strings.Contains(frame, "perplexity-key Perplexity API Key") {
		t.Fatalf("the prompt does not name the input:\n%s", h.view())
	}
	for _, r := range "sk-typed" {
		h.key(string(r))
	}
	if v := h.view(); strings.Contains(v, "sk-typed") || !strings.Contains(v, "[••••••••]") {
		t.Fatalf("the typed secret is shown, or not as dots:\n%s", v)
	}
	h.key("enter")
	h.until("perplexity ready", func() bool { return h.m.server("perplexity").state == engine.StateReady })
	f.mu.Lock()
	got := f.given["perplexity-key"]
	f.mu.Unlock()
	if got != "sk-typed" {
		t.Fatalf("the session was given %q", got)
	}
}

func TestImportedInputPromptCancelled(t *testing.T) {
	f := newFake(t)
	f.addHTTP("perplexity")
	f.specs[0].Inputs = []backend.InputSpec{{ID: "perplexity-key"}}
	f.connectErr["perplexity"] = &failure.Error{Base: fault.Base{ErrCode: failure.CodeSecretMissing, Msg: "not set"}}
	h := newHarness(t, f, 120, 30)
	h.until("the secret prompt", func() bool { _, ok := h.m.topDialog().(*dialog.Secret); return ok })
	h.key("esc")
	if h.m.topDialog() != nil {
		t.Fatal("esc left a dialog open")
	}
	if r := h.m.server("perplexity"); r.state != engine.StateFailed || r.errCode != failure.CodeSecretMissing {
		t.Fatalf("row %s %s", r.state, r.errCode)
	}
}
