package consent

import (
	"errors"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
)

// A local endpoint is decided like a secret binding: its digest is over
// the kind and the origin only (another port is another digest, the
// server's name is not in it), a grant is kept in the same store and
// folds back as a local grant (not a program, not a secret), --allow-local
// approves the named server for one run and a name matching no held
// server is E328, and headless the pending ones are one PendingError,
// E327 when nothing else is pending.
func TestLocalEndpointDecidedLikeABinding(t *testing.T) {
	a, err := NewLocalEndpoint("mine", "/p/.cursor/mcp.json:1:17", "http://127.0.0.1:3001/mcp?token=x")
	if err != nil {
		t.Fatal(err)
	}
	renamed, _ := NewLocalEndpoint("other-name", "/q/.mcp.json:2:3", "http://127.0.0.1:3001/sse")
	port, _ := NewLocalEndpoint("mine", "/p/.cursor/mcp.json:1:17", "http://127.0.0.1:3002/mcp")
	secret, _ := NewBinding("mine", "tok", "http://127.0.0.1:3001/mcp", []string{"Authorization"})
	if a.Origin != "http://127.0.0.1:3001" || !a.Local || a.Secret != "" || !ValidDigest(a.Digest) {
		t.Fatalf("local endpoint: %+v", a)
	}
	if renamed.Digest != a.Digest || port.Digest == a.Digest || secret.Digest == a.Digest {
		t.Fatalf("digests: same origin %v, other port %v, a secret of it %v", renamed.Digest == a.Digest, port.Digest != a.Digest, secret.Digest != a.Digest)
	}
	if a.AllowFlag() != "--allow-local mine" {
		t.Errorf("allow flag: %s", a.AllowFlag())
	}

	store := Open(tempHome(t))
	d := NewDecider(store, nil, clock)
	decs, err := d.DecideBindings([]*Binding{a, port})
	if err != nil || decs[0].State != NeedsConsent || decs[1].State != NeedsConsent {
		t.Fatalf("fresh: %v %+v", err, decs)
	}
	err = RequireAll(nil, decs, false)
	var pe *PendingError
	if !errors.As(err, &pe) || pe.Code() != CodeLocalHeld || len(pe.Bindings) != 2 {
		t.Fatalf("headless: %v", err)
	}
	data := pe.ErrorData().(PendingData)
	if len(data.Local) != 2 || len(data.Bindings) != 0 || data.Local[0].Source != a.Source || data.Local[0].Grant != "relavium consent grant mine" {
		t.Errorf("pending data: %+v", data)
	}
	var human strings.Builder
	if err := pe.WriteHuman(&human); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"E327", "server   mine", "from     /p/.cursor/mcp.json:1:17", "address  http://127.0.0.1:3001", "--allow-local mine", "consent grant NAME"} {
		if !strings.Contains(human.String(), want) {
			t.Errorf("the human text does not say %q:\n%s", want, human.String())
		}
	}
	if strings.Contains(human.String()+pe.Error(), "token=x") {
		t.Error("the url's query reached the refusal")
	}
	// With a secret pending too, the code is the secret's.
	sdecs, _ := d.DecideBindings([]*Binding{secret, a})
	if err := RequireAll(nil, sdecs, false); !errors.As(err, &pe) || pe.Code() != CodeSecretUnbound {
		t.Errorf("a secret and a local endpoint pending: %v", err)
	}

	// --allow-local names the server; one naming no held server is E328.
	flagged, err := NewDecider(store, nil, clock).AllowLocal([]string{"mine"}).DecideBindings([]*Binding{a, renamed})
	if err != nil || flagged[0].State != Approved || flagged[0].Why != ByAllowFlag || flagged[1].State != NeedsConsent {
		t.Fatalf("--allow-local mine: %v %+v", err, flagged)
	}
	if _, err := NewDecider(store, nil, clock).AllowLocal([]string{"nope"}).DecideBindings([]*Binding{a}); fault.CodeOf(err, "") != CodeAllowLocalUnmatched {
		t.Errorf("--allow-local nope: %v", err)
	}

	// Remembered: the same store, folded back as a local grant; the same
	// address under another name is approved, another port is not.
	if err := d.RememberBinding(a); err != nil {
		t.Fatal(err)
	}
	grants, err := store.Fold()
	if err != nil {
		t.Fatal(err)
	}
	g, ok := grants.Get(a.Digest)
	if !ok || !g.IsLocal() || g.IsBinding() || g.Origin != a.Origin || g.Server != "mine" {
		t.Fatalf("the folded grant: %+v", g)
	}
	fresh, err := NewDecider(store, nil, clock).DecideBindings([]*Binding{renamed, port})
	if err != nil || fresh[0].State != Approved || fresh[0].Why != ByGrant || fresh[1].State != NeedsConsent {
		t.Fatalf("after the grant: %v %+v", err, fresh)
	}
	// A stdio server's diff never compares with a local grant.
	if c := grants.Closest(mustResolved("mine", "/bin/true", nil, nil, "")); c != nil {
		t.Errorf("a stdio server compared with %+v", c)
	}
	// Denied: the decision says so, and the error names the address.
	d.Deny(port.Digest)
	if decs, _ := d.DecideBindings([]*Binding{port}); decs[0].State != Denied {
		t.Errorf("denied: %+v", decs[0])
	}
	if msg := BindingDeniedError(port).Error(); !strings.Contains(msg, "local address http://127.0.0.1:3002 was denied") {
		t.Errorf("denied error: %s", msg)
	}
}

// What a held endpoint is, said to the person: an address is a service on
// this machine or its network; a name is dialled only if it resolves to a
// private address.
func TestLocalKindNamesAnAddressOrAName(t *testing.T) {
	for raw, address := range map[string]bool{
		"http://127.0.0.1:3001/mcp": true, "http://[::1]:8080/": true, "http://localhost:7890/sse": true,
		"http://10.0.0.5:8080/mcp": true, "http://jenkins:8080/mcp": false, "http://printer.local/mcp": false,
	} {
		b, err := NewLocalEndpoint("s", "", raw)
		if err != nil {
			t.Fatal(err)
		}
		got := b.LocalKind()
		if strings.HasPrefix(got, "a loopback or private address") != address || strings.HasPrefix(got, "a name only a private network resolves") == address {
			t.Errorf("%s: %q", raw, got)
		}
	}
}
