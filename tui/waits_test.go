package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/muesli/termenv"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/oauth"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
)

// clockAt is a model clock the test moves by hand.
type clockAt struct{ t time.Time }

func (c *clockAt) now() time.Time { return c.t }

// A server waiting for the person's consent says what it waits for and for
// how long, in its row and its details; the tick (not a sleep) moves the
// count, and keeps ticking while it waits.
func TestConsentWaitShowsHowLong(t *testing.T) {
	f := newFake(t)
	f.addStdio("demo", "demo-server")
	f.setTools("demo", demoTools(), nil)
	h := newHarness(t, f, 120, 30)
	h.until("the consent dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
	clock := &clockAt{t: fixedNow}
	h.m.now = clock.now
	r := h.m.server("demo")
	if d := h.m.servers.stateDetail(r); !strings.Contains(d, "needs consent") || strings.Contains(d, "0s") {
		t.Fatalf("a wait just begun: %q", d)
	}
	clock.t = fixedNow.Add(12*time.Second + 400*time.Millisecond)
	h.send(tickMsg(clock.t))
	if d := h.m.servers.stateDetail(r); !strings.Contains(d, "needs consent 12s") {
		t.Fatalf("the row does not say how long it waits: %q", d)
	}
	details := strings.Join(h.m.servers.details(r, 200, false), "\n")
	if !strings.Contains(details, "waiting for your consent to start it · 12s: press a") {
		t.Fatalf("the details do not say how long it waits:\n%s", details)
	}
	if !h.m.animating() || !h.m.ticking {
		t.Fatal("a server waiting for consent does not keep the tick going")
	}
	clock.t = fixedNow.Add(75 * time.Second)
	h.send(tickMsg(clock.t))
	if d := h.m.servers.stateDetail(r); !strings.Contains(d, "needs consent 1m15s") {
		t.Fatalf("a long wait: %q", d)
	}
}

// Before consent is decided every declared server is resolving, and says
// for how long.
func TestResolvingShowsHowLong(t *testing.T) {
	f := newFake(t)
	f.addStdio("demo", "demo-server")
	clock := &clockAt{t: fixedNow}
	m := New(context.Background(), f, Options{Styles: testStyles(termenv.Ascii, themes.Mono), Now: clock.now})
	defer m.Shutdown()
	m.Update(teaSize(120, 30)) // no Init: nothing is decided
	clock.t = fixedNow.Add(3 * time.Second)
	m.Update(tickMsg(clock.t))
	if v := m.View(); !strings.Contains(v, "resolving… 3s") {
		t.Fatalf("the row does not say for how long it resolves:\n%s", v)
	}
	if d := strings.Join(m.servers.details(m.server("demo"), 200, false), "\n"); !strings.Contains(d, "resolving the declaration and its consent… 3s") {
		t.Fatalf("the details do not say for how long it resolves:\n%s", d)
	}
}

// A sign-in waiting for the browser says so and for how long.
func TestSignInWaitShowsHowLong(t *testing.T) {
	f := newFake(t)
	f.addHTTP("prot")
	f.connectErr["prot"] = signInErr("prot")
	f.signIn = func(ctx context.Context, server string, shown func(oauth.Prompt)) error {
		shown(oauth.Prompt{Server: server, AuthServer: "https://auth.example", URL: "https://auth.example/authorize"})
		<-ctx.Done()
		return ctx.Err()
	}
	h := newHarness(t, f, 110, 30)
	h.until("needs sign-in", func() bool { r := h.m.server("prot"); return r.state == engine.StateFailed && !r.busy })
	clock := &clockAt{t: fixedNow}
	h.m.now = clock.now
	h.key("enter")
	r := h.m.server("prot")
	h.until("waiting", func() bool {
		return strings.Contains(strings.Join(h.m.auth.details(r, 300), " "), "waiting for the browser")
	})
	clock.t = fixedNow.Add(5 * time.Second)
	h.send(tickMsg(clock.t))
	if d := strings.Join(h.m.auth.details(r, 300), " "); !strings.Contains(d, "waiting for the browser · 5s: sign in at https://auth.example") {
		t.Fatalf("the sign-in does not say how long it waits: %s", d)
	}
	if d, _ := h.m.auth.detail(r); !strings.Contains(d, "signing in… 5s") {
		t.Fatalf("the row does not say how long the sign-in runs: %q", d)
	}
	if !h.m.animating() {
		t.Fatal("a sign-in does not keep the tick going")
	}
	h.key("esc")
	h.until("cancelled", func() bool { return h.m.auth.run == nil })
}
