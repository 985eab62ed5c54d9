package consent

import (
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
)

func clock() time.Time { return now }

func TestDecide(t *testing.T) {
	home := tempHome(t)
	store := Open(home)
	granted, flagged, fresh := fakeResolved("granted"), fakeResolved("flagged"), fakeResolved("fresh")
	if err := store.Grant(granted, now); err != nil {
		t.Fatal(err)
	}
	// An earlier version of "fresh" (other args) was granted: the decision
	// carries the diff against it.
	if err := store.Grant(mustResolved("fresh", "/bin/fresh", []string{"--old"}, nil, "/w"), now); err != nil {
		t.Fatal(err)
	}
	d := NewDecider(store, []string{flagged.Digest}, clock)
	servers := []*Resolved{granted, flagged, fresh}
	decs, err := d.Decide(servers)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		state State
		why   Why
	}{{Approved, ByGrant}, {Approved, ByAllowFlag}, {NeedsConsent, ""}}
	for i, w := range want {
		if decs[i].State != w.state || decs[i].Why != w.why || decs[i].Server != servers[i] {
			t.Errorf("%s: %s/%s, want %s/%s", servers[i].Name, decs[i].State, decs[i].Why, w.state, w.why)
		}
	}
	if decs[0].Grant == nil || decs[0].Grant.Digest != granted.Digest {
		t.Error("approved-by-grant decision does not carry its grant")
	}
	if decs[2].Diff == nil || decs[2].Diff.Previous == nil || decs[2].Diff.Previous.Server != "fresh" || decs[2].StoreErr != nil {
		t.Fatalf("needs-consent decision: diff %+v store err %v", decs[2].Diff, decs[2].StoreErr)
	}

	// Approve once: approved this session, nothing written.
	d.ApproveOnce(fresh.Digest)
	decs, _ = d.Decide(servers)
	if decs[2].State != Approved || decs[2].Why != BySession {
		t.Fatalf("after ApproveOnce: %s/%s", decs[2].State, decs[2].Why)
	}
	if g, _ := store.Fold(); g.Has(fresh.Digest) {
		t.Fatal("ApproveOnce wrote a grant")
	}
	// A second decider (a new invocation) does not inherit it.
	if decs2, _ := NewDecider(store, nil, clock).Decide([]*Resolved{fresh}); decs2[0].State != NeedsConsent {
		t.Fatal("approve-once leaked into another session")
	}

	// Deny: remembered for the session, even over the once-approval.
	d.Deny(fresh.Digest)
	decs, _ = d.Decide(servers)
	if decs[2].State != Denied {
		t.Fatalf("after Deny: %s", decs[2].State)
	}
	if decs, _ = d.Decide(servers); decs[2].State != Denied {
		t.Fatal("denial not remembered")
	}
	// Explicit re-ask: needs consent again.
	d.Reask(fresh.Digest)
	if decs, _ = d.Decide(servers); decs[2].State != NeedsConsent {
		t.Fatalf("after Reask: %s", decs[2].State)
	}

	// Remember: a grant line, visible to a fresh decider.
	if err := d.Remember(fresh); err != nil {
		t.Fatal(err)
	}
	decs2, _ := NewDecider(store, nil, clock).Decide([]*Resolved{fresh})
	if decs2[0].State != Approved || decs2[0].Why != ByGrant || !decs2[0].Grant.GrantedAt.Equal(now) {
		t.Fatalf("after Remember: %+v", decs2[0])
	}

	// A revocation made meanwhile (another terminal) counts at the next Decide.
	if err := store.Revoke(granted.Digest, now); err != nil {
		t.Fatal(err)
	}
	decs2, _ = NewDecider(store, nil, clock).Decide([]*Resolved{granted})
	if decs2[0].State != NeedsConsent {
		t.Fatal("a revoked grant still approves")
	}
}

func TestDecideAllowFlagErrors(t *testing.T) {
	store := Open(tempHome(t))
	a, b := fakeResolved("a"), fakeResolved("b")
	typo := "v1:" + strings.Repeat("0", 64)
	for _, tc := range []struct {
		allow []string
		code  fault.Code
		says  []string
	}{
		{[]string{typo}, CodeAllowUnmatched, []string{typo, "matches no declared stdio server", "a " + a.Digest, "b " + b.Digest}},
		{[]string{"v1:abc"}, CodeBadDigest, []string{"v1:abc", "64 lowercase hex"}},
		{[]string{strings.ToUpper(a.Digest)}, CodeBadDigest, []string{"not a consent digest"}},
		{[]string{"v2:" + strings.Repeat("a", 64)}, CodeBadDigest, []string{"only v1 digests"}},
		{[]string{a.Digest, typo, "junk"}, CodeAllowUnmatched, []string{typo, "junk"}},
	} {
		_, err := NewDecider(store, tc.allow, clock).Decide([]*Resolved{a, b})
		var ce *Error
		if !errors.As(err, &ce) || ce.Code() != tc.code || ce.ExitCode() != 2 {
			t.Errorf("allow %v: err %v, want %s exit 2", tc.allow, err, tc.code)
			continue
		}
		for _, s := range tc.says {
			if !strings.Contains(ce.Error(), s) {
				t.Errorf("allow %v: %q does not say %q", tc.allow, ce.Error(), s)
			}
		}
	}
	_, err := NewDecider(store, []string{typo}, clock).Decide(nil)
	assertCode(t, err, CodeAllowUnmatched, "none is declared")
}

func TestDecideStoreFailureIsReported(t *testing.T) {
	home := tempHome(t)
	a := fakeResolved("a")
	writeStore(t, home, gl(a.Digest, t1)+"\n{broken\n")
	decs, err := NewDecider(Open(home), nil, clock).Decide([]*Resolved{a})
	if err != nil {
		t.Fatal(err)
	}
	var fe *FoldError
	if decs[0].State != NeedsConsent || !errors.As(decs[0].StoreErr, &fe) || fe.Line != 2 {
		t.Fatalf("a failed fold must ask again and say why: %+v", decs[0])
	}
	// The allow flag still works while the store is unreadable.
	decs, _ = NewDecider(Open(home), []string{a.Digest}, clock).Decide([]*Resolved{a})
	if decs[0].State != Approved {
		t.Fatal("allow flag ignored when the store is unreadable")
	}
	// Remember would write a grant no fold sees: it refuses with the store's
	// code, writes nothing and approves nothing; approving once still works.
	d := NewDecider(Open(home), nil, clock)
	before, _ := os.ReadFile(Open(home).Path())
	assertCode(t, d.Remember(a), CodeStoreUnreadable, "line 2")
	if after, _ := os.ReadFile(Open(home).Path()); string(after) != string(before) {
		t.Fatal("Remember wrote to a store that fails closed")
	}
	if decs, _ = d.Decide([]*Resolved{a}); decs[0].State != NeedsConsent {
		t.Fatal("a refused Remember approved the server")
	}
	d.ApproveOnce(a.Digest)
	if decs, _ = d.Decide([]*Resolved{a}); decs[0].State != Approved {
		t.Fatal("ApproveOnce did not approve for the session")
	}
}

func TestDeciderConcurrentAnswers(t *testing.T) {
	store := Open(tempHome(t))
	servers := []*Resolved{fakeResolved("a"), fakeResolved("b"), fakeResolved("c")}
	d := NewDecider(store, nil, clock)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := servers[i%3]
			switch i % 4 {
			case 0:
				d.ApproveOnce(r.Digest)
			case 1:
				d.Deny(r.Digest)
			case 2:
				d.Reask(r.Digest)
			default:
				if _, err := d.Decide(servers); err != nil {
					t.Error(err)
				}
			}
		}(i)
	}
	wg.Wait()
}
