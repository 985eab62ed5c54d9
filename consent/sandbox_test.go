package consent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/sandbox"
)

// resolveSandboxed resolves /bin/sh in cwd under decl.
func resolveSandboxed(t *testing.T, cwd string, decl sandbox.Decl) *Resolved {
	t.Helper()
	r, err := Resolve(Declaration{Name: "fs", Command: "/bin/sh", Args: []string{"-c", "true"}, Cwd: cwd, Sandbox: &decl}, "/usr/bin:/bin")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The sandbox policy is in the digest: loosening it asks again with a
// diff naming what loosened; tightening it keeps the grant.
func TestSandboxPolicyInTheDigest(t *testing.T) {
	home := tempHome(t)
	cwd := t.TempDir()
	extra := filepath.Join(cwd, "data")
	if err := os.Mkdir(extra, 0o755); err != nil {
		t.Fatal(err)
	}
	store := Open(home)
	guarded := resolveSandboxed(t, cwd, sandbox.Decl{Network: sandbox.NetGuarded})
	if guarded.Sandbox == nil || guarded.Sandbox.Network != sandbox.NetGuarded {
		t.Fatalf("resolved policy: %+v", guarded.Sandbox)
	}
	plain, err := Digest(guarded.Command, guarded.Args, guarded.Env, guarded.Cwd)
	if err != nil || plain == guarded.Digest {
		t.Fatalf("the policy does not change the digest: %s %v", plain, err)
	}
	if err := store.Grant(guarded, now); err != nil {
		t.Fatal(err)
	}
	decide := func(r *Resolved) Decision {
		t.Helper()
		decs, err := NewDecider(store, nil, clock).Decide([]*Resolved{r})
		if err != nil {
			t.Fatal(err)
		}
		return decs[0]
	}
	if d := decide(guarded); d.State != Approved || d.Why != ByGrant {
		t.Fatalf("the granted policy: %s", d.State)
	}
	// Tighter: network none. Approved by the guarded grant, no question.
	none := resolveSandboxed(t, cwd, sandbox.Decl{Network: sandbox.NetNone})
	if none.Digest == guarded.Digest {
		t.Fatal("network none has the digest of guarded")
	}
	if d := decide(none); d.State != Approved || d.Why != ByGrant || d.Grant.Digest != guarded.Digest {
		t.Errorf("tightened to none: %s/%s", d.State, d.Why)
	}
	// Looser, each way: asked again, the diff names the loosening.
	for name, tc := range map[string]struct {
		decl sandbox.Decl
		want string
	}{
		"network open": {sandbox.Decl{Network: sandbox.NetOpen}, "network open (was guarded)"},
		"a write path": {sandbox.Decl{Network: sandbox.NetGuarded, Write: []string{"/srv"}}, "write /srv"},
		"sandbox off":  {sandbox.Decl{Off: true}, "sandbox off (was on)"},
		"an allow":     {sandbox.Decl{Network: sandbox.NetGuarded, Allow: []string{"10.0.0.1:22"}}, "allow 10.0.0.1:22"},
	} {
		r := resolveSandboxed(t, cwd, tc.decl)
		d := decide(r)
		if d.State != NeedsConsent || d.Diff == nil {
			t.Errorf("%s: %s, want needs-consent", name, d.State)
			continue
		}
		if lines := strings.Join(d.Diff.Lines(), "\n"); !strings.Contains(lines, "+ sandbox") || !strings.Contains(lines, tc.want) {
			t.Errorf("%s: diff\n%s\nwant %q", name, lines, tc.want)
		}
	}
	// A grant line whose policy words were edited to claim more proves
	// nothing: its digest no longer matches the program under that policy.
	forged := *guarded
	open := sandbox.Policy(*guarded.Sandbox)
	open.Network = sandbox.NetOpen
	forged.Sandbox = &open
	line, err := encodeGrant(&forged, now)
	if err != nil {
		t.Fatal(err)
	}
	// forged carries guarded's digest with open's words.
	home2 := tempHome(t)
	writeStore(t, home2, string(line))
	r := resolveSandboxed(t, cwd, sandbox.Decl{Network: sandbox.NetOpen})
	if decs, _ := NewDecider(Open(home2), nil, clock).Decide([]*Resolved{r}); decs[0].State != NeedsConsent {
		t.Errorf("a forged policy kept a grant: %s", decs[0].State)
	}
}
