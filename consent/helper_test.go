package consent

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
)

// A headers helper is decided like a local program: its digest is over
// the kind, the line as written, the absolute shell, the cwd and the
// origin (the server's name and the url's path are not in it; any of the
// others changes it); --allow-mcp-stdio DIGEST approves it (and is no
// longer "matching nothing" when only a helper has that digest); headless
// it is E301 even beside a secret or a local endpoint; a grant is kept in
// the same store and folds back as a helper (not a program to diff
// against, not a local endpoint), and a revocation ends it.
func TestHeadersHelperDecidedLikeALocalProgram(t *testing.T) {
	path := os.Getenv("PATH")
	h, err := NewHeadersHelper("s", "/p/.mcp.json:3:5", "get-token {{env.PROFILE}}", "sh", "/p", "https://api.example.com/mcp?x=1", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h.Helper.Shell, "/") || h.Origin != "https://api.example.com:443" || !ValidDigest(h.Digest) || h.IsSecret() || h.Local {
		t.Fatalf("helper: %+v %+v", h, h.Helper)
	}
	same, _ := NewHeadersHelper("other", "/q/.mcp.json:1:1", "get-token {{env.PROFILE}}", "sh", "/p", "https://api.example.com/other", path)
	line, _ := NewHeadersHelper("s", "", "get-token {{env.PROFILE}} -v", "sh", "/p", "https://api.example.com/mcp", path)
	cwd, _ := NewHeadersHelper("s", "", "get-token {{env.PROFILE}}", "sh", "/q", "https://api.example.com/mcp", path)
	origin, _ := NewHeadersHelper("s", "", "get-token {{env.PROFILE}}", "sh", "/p", "https://api.example.com:8443/mcp", path)
	local, _ := NewLocalEndpoint("s", "", "https://api.example.com/mcp")
	if same.Digest != h.Digest || line.Digest == h.Digest || cwd.Digest == h.Digest || origin.Digest == h.Digest || local.Digest == h.Digest {
		t.Fatalf("digests: same %v line %v cwd %v origin %v local %v", same.Digest == h.Digest, line.Digest != h.Digest, cwd.Digest != h.Digest, origin.Digest != h.Digest, local.Digest != h.Digest)
	}
	if _, err := NewHeadersHelper("s", "", "x", "no-such-shell-here", "/p", "https://api.example.com/mcp", path); fault.CodeOf(err, "") != CodeCommandNotFound {
		t.Fatalf("a shell not on PATH: %v", err)
	}
	if h.AllowFlag() != "--allow-mcp-stdio "+h.Digest {
		t.Errorf("allow flag: %s", h.AllowFlag())
	}

	store := Open(tempHome(t))
	secret, _ := NewBinding("s", "tok", "https://api.example.com/mcp", []string{"Authorization"})
	d := NewDecider(store, nil, clock)
	decs, err := d.DecideBindings([]*Binding{h, secret})
	if err != nil || decs[0].State != NeedsConsent {
		t.Fatalf("fresh: %v %+v", err, decs)
	}
	var pe *PendingError
	if err := RequireAll(nil, decs, false); !errors.As(err, &pe) || pe.Code() != CodeConsentRequired {
		t.Fatalf("headless beside a secret: %v", err)
	}
	data := pe.ErrorData().(PendingData)
	if len(data.Helpers) != 1 || data.Helpers[0].Line != h.Helper.Line || data.Helpers[0].Grant != "relavium consent grant "+h.Digest || len(data.Bindings) != 1 {
		t.Fatalf("pending data: %+v", data)
	}

	flagged := NewDecider(store, []string{h.Digest}, clock)
	if _, err := flagged.DecideWith(nil, []*Binding{h}); err != nil {
		t.Fatalf("--allow-mcp-stdio naming a helper: %v", err)
	}
	if _, err := flagged.Decide(nil); fault.CodeOf(err, "") != CodeAllowUnmatched {
		t.Fatalf("--allow-mcp-stdio naming nothing declared: %v", err)
	}
	if decs, _ := flagged.DecideBindings([]*Binding{h}); decs[0].State != Approved || decs[0].Why != ByAllowFlag {
		t.Fatalf("approved by the flag: %+v", decs[0])
	}

	if err := d.RememberBinding(h); err != nil {
		t.Fatal(err)
	}
	grants, err := store.Fold()
	if err != nil {
		t.Fatal(err)
	}
	g, ok := grants.Get(h.Digest)
	if !ok || !g.IsHelper() || g.IsLocal() || g.IsBinding() || g.Origin != h.Origin || g.Command != h.Helper.Shell || g.Cwd != "/p" ||
		len(g.Args) != 2 || g.Args[1] != h.Helper.Line {
		t.Fatalf("the grant read back: %+v", g)
	}
	if c := grants.Closest(&Resolved{Name: "s", Command: h.Helper.Shell, Cwd: "/p", Digest: "v1:" + strings.Repeat("0", 64)}); c != nil {
		t.Fatalf("a stdio server was diffed against a helper's grant: %+v", c)
	}
	if decs, _ := NewDecider(store, nil, clock).DecideBindings([]*Binding{h, line}); decs[0].State != Approved || decs[1].State != NeedsConsent {
		t.Fatalf("after the grant: %+v", decs)
	}
	if err := store.Revoke(h.Digest, clock()); err != nil {
		t.Fatal(err)
	}
	if decs, _ := NewDecider(store, nil, clock).DecideBindings([]*Binding{h}); decs[0].State != NeedsConsent {
		t.Fatalf("after the revocation: %+v", decs)
	}
}
