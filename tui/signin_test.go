package tui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/oauth"
)

func (f *fakeBackend) SignIn(ctx context.Context, server string, shown func(oauth.Prompt)) error {
	if f.signIn == nil {
		return errors.New("no sign-in in this fake")
	}
	return f.signIn(ctx, server, shown)
}

// signInErr is the host's failure of a server that needs a sign-in.
func signInErr(server string) error {
	return &testErr{code: oauth.CodeSignInRequired, msg: "server " + server + ": connect: server " + server +
		" needs sign-in at https://auth.example and no one can be asked here; run: relavium auth login " + server}
}

// A server that needs a sign-in says so with the authorization server's
// origin; enter signs in (the url shown while the browser is out), then it
// reconnects.
func TestSignInFromTheServersPane(t *testing.T) {
	f := newFake(t)
	f.addHTTP("prot")
	f.connectErr["prot"] = signInErr("prot")
	waiting := make(chan struct{})
	release := make(chan struct{})
	f.signIn = func(ctx context.Context, server string, shown func(oauth.Prompt)) error {
		shown(oauth.Prompt{Server: server, AuthServer: "https://auth.example", Scopes: []string{"mcp:read"},
			URL: "https://auth.example/authorize?client_id=relavium&state=s"})
		close(waiting)
		select {
		case <-release:
		case <-ctx.Done():
			return ctx.Err()
		}
		f.mu.Lock()
		delete(f.connectErr, server)
		f.mu.Unlock()
		return nil
	}
	h := newHarness(t, f, 110, 30)
	h.until("needs sign-in", func() bool {
		r := h.m.server("prot")
		return r.state == engine.StateFailed && !r.busy
	})
	if d := h.m.servers.stateDetail(h.m.server("prot")); !strings.Contains(d, "needs sign-in · https://auth.example") {
		t.Fatalf("the row does not say needs sign-in with the origin: %q", d)
	}
	if v := h.view(); !strings.Contains(v, "needs sign-in at") || !strings.Contains(v, "press enter to sign in") {
		t.Fatalf("the details do not say how to sign in:\n%s", v)
	}
	if !strings.Contains(h.view(), "enter sign in") {
		t.Fatalf("the footer does not say enter signs in:\n%s", h.view())
	}
	h.key("enter")
	<-waiting
	details := func() string { return strings.Join(h.m.auth.details(h.m.server("prot"), 300), "\n") }
	h.until("the url shown", func() bool { return strings.Contains(details(), "https://auth.example/authorize?client_id=relavium") })
	if d := details(); !strings.Contains(d, "waiting for the browser") || !strings.Contains(d, "esc or c cancels") || !strings.Contains(d, "scopes: mcp:read") {
		t.Fatalf("waiting details:\n%s", d)
	}
	close(release)
	h.until("ready after sign-in", func() bool { return h.m.server("prot").state == engine.StateReady })
}

// esc cancels a sign-in waiting for the browser; the row still needs it.
func TestSignInCancelled(t *testing.T) {
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
	h.key("enter")
	h.until("waiting", func() bool {
		return strings.Contains(strings.Join(h.m.auth.details(h.m.server("prot"), 300), " "), "waiting for the browser")
	})
	h.key("esc")
	h.until("cancelled", func() bool { return h.m.auth.run == nil })
	if !strings.Contains(h.view(), "cancelled") || !strings.Contains(h.view(), "needs sign-in") {
		t.Fatalf("after cancel:\n%s", h.view())
	}
}

// A call refused for want of scopes (E851) asks again with the new scopes.
func TestStepUpAsksAgainWithTheScopes(t *testing.T) {
	h := ready(t, 120, 30)
	err := &fault.Error{ErrCode: oauth.CodeStepUpRequired, Msg: "more scopes", Exit: 2,
		Data: oauth.SignInData{Server: "demo", AuthServer: "https://auth.example", Scopes: []string{"mcp:read", "mcp:write"}}}
	h.m.noteStepUp(err)
	if v := h.view(); !strings.Contains(v, "server demo asks for more scopes") {
		t.Fatalf("step-up not said:\n%s", v)
	}
	if d := strings.Join(h.m.auth.details(h.m.server("demo"), 200), "\n"); !strings.Contains(d, "asks for more scopes: mcp:read mcp:write") {
		t.Fatalf("the new scopes are not shown: %s", d)
	}
	if !h.m.auth.wants(h.m.server("demo")) {
		t.Fatal("enter would not sign in again")
	}
}

// A call whose token expired with no refresh token to renew it fails with
// E850 (never a raw 401): the server's row says needs sign-in with the
// authorization server, its details say how, and enter signs in.
func TestExpiredTokenMidSessionNeedsSignIn(t *testing.T) {
	h := ready(t, 120, 30)
	h.f.call = func(context.Context, string, engine.ToolDef, json.RawMessage, func(engine.Progress)) (*engine.ToolResult, error) {
		return nil, &fault.Error{ErrCode: oauth.CodeSignInRequired, Exit: 2,
			Msg:  "server demo needs sign-in at https://auth.example and no one can be asked here; run: relavium auth login demo",
			Data: oauth.SignInData{Server: "demo", AuthServer: "https://auth.example", Command: "relavium auth login demo"}}
	}
	h.key("tab", "enter", "ctrl+s")
	h.until("the call failed", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
	if v := h.view(); !strings.Contains(v, "server demo needs sign-in") || strings.Contains(v, "E503") {
		t.Fatalf("the status does not say the server needs sign-in:\n%s", v)
	}
	if d := h.m.servers.stateDetail(h.m.server("demo")); !strings.Contains(d, "needs sign-in · https://auth.example") {
		t.Fatalf("the row does not say needs sign-in: %q", d)
	}
	if d := strings.Join(h.m.auth.details(h.m.server("demo"), 200), "\n"); !strings.Contains(d, "needs sign-in at https://auth.example") || !strings.Contains(d, "press enter to sign in") {
		t.Fatalf("the details do not say how to sign in: %s", d)
	}
	if !h.m.auth.wants(h.m.server("demo")) {
		t.Fatal("enter would not sign in")
	}
}
