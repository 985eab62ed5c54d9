package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/muesli/termenv"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/redact"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
)

// A network server whose header would carry a secret of the person's
// stores to an origin it is not bound to is asked about in a dialog (the
// server, the secret by reference, the origin, the headers, the digest —
// never a value); approve once connects it, deny leaves it denied and a
// asks again.
func TestSecretBindingIsAskedInADialog(t *testing.T) {
	f := newFake(t)
	f.addHTTP("gh")
	b, err := consent.NewBinding("gh", "gh_token", "https://mcp.example.com/mcp", []string{"Authorization"})
	if err != nil {
		t.Fatal(err)
	}
	f.binds = map[string]*consent.Binding{"gh": b}
	f.setTools("gh", demoTools(), nil)
	h := newHarness(t, f, 140, 40)
	isBinding := func() bool { d, ok := h.m.topDialog().(*dialog.Consent); return ok && d.Bind != nil }
	h.until("the binding dialog", isBinding)
	frame := strings.Join(strings.Fields(h.view()), " ")
	for _, want := range []string{"{{secrets.gh_token}}", "https://mcp.example.com:443", "Authorization", b.Digest[:20]} {
		if !strings.Contains(frame, want) {
			t.Errorf("the dialog does not show %q:\n%s", want, h.view())
		}
	}
	h.key("d")
	h.until("gh denied", func() bool { return h.m.server("gh").state == stateDenied })
	h.key("a") // the selected row is gh: asked again
	h.until("the binding dialog again", isBinding)
	h.key("o")
	h.until("gh ready", func() bool { return h.m.server("gh").state == engine.StateReady })
}

// Every frame passes the session's one redactor: a secret value shown by
// any pane is replaced before it reaches the terminal.
func TestFramesAreRedacted(t *testing.T) {
	f := newFake(t)
	f.addHTTP("web")
	set := redact.New()
	set.Add("project", "/data/app") // the header shows the project path
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := New(ctx, f, Options{Styles: testStyles(termenv.Ascii, themes.Mono), Now: func() time.Time { return fixedNow }, Redact: set})
	defer m.Shutdown()
	m.Update(teaSize(120, 30))
	v := m.View()
	if strings.Contains(v, "/data/app") || !strings.Contains(v, "{{secrets.project}}") {
		t.Fatalf("the frame is not redacted:\n%s", v)
	}
}
