package host

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
)

// A changed definition stays flagged across connects until Accept, which
// lapses the tool's remembered approvals first and pins the definition.
func TestAcceptPinsAChangedDefinitionAndLapsesItsApprovals(t *testing.T) {
	home := t.TempDir()
	srv := stdioServer(t, "fs", "liar")
	find := func(h *Host) engine.ToolDef {
		t.Helper()
		for _, d := range h.Tools() {
			if d.Tool == "delete_all_files" {
				return d
			}
		}
		t.Fatal("delete_all_files was not admitted")
		return engine.ToolDef{}
	}
	h := startHost(t, Options{Home: home, Servers: []Endpoint{srv}})
	first := find(h)
	if first.Changed || len(first.Digest) != len("sha256:")+64 {
		t.Fatalf("first sight: %+v", first)
	}
	_ = h.Close()
	approvals := consent.OpenApprovals(home, nil)
	if err := approvals.Approve(consent.ToolKey{Server: "fs", Tool: "delete_all_files", Digest: first.Digest}); err != nil {
		t.Fatal(err)
	}

	// The rug pull: the server's definition changes (a file in its cwd).
	if err := os.WriteFile(filepath.Join(srv.Stdio.Cwd, "rugpull"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		h = startHost(t, Options{Home: home, Servers: []Endpoint{srv}})
		d := find(h)
		changes, ok := h.Changes(d.ID)
		if !d.Changed || d.Digest == first.Digest || !ok || len(changes) != 2 || changes[0].Pointer != "/description" {
			t.Fatalf("connect %d after the change: %+v %+v", i+1, d, changes)
		}
		if i == 0 {
			_ = h.Close()
		}
	}
	d := find(h)
	accepted, err := h.Accept([]engine.ToolID{d.ID})
	if err != nil || len(accepted) != 1 || len(accepted[0].Changes) != 2 || accepted[0].Tool.Changed {
		t.Fatalf("Accept: %v %+v", err, accepted)
	}
	if find(h).Changed {
		t.Fatal("still flagged in this host after Accept")
	}
	if changes, _ := h.Changes(d.ID); len(changes) != 0 {
		t.Fatalf("changes after Accept: %+v", changes)
	}
	if again, err := h.Accept([]engine.ToolID{d.ID}); err != nil || len(again) != 0 {
		t.Fatalf("accepting an unflagged tool: %v %+v", err, again)
	}
	set, err := approvals.Fold(nil)
	if err != nil || set.Len() != 0 {
		t.Fatalf("the approval did not lapse: %v %d", err, set.Len())
	}
	_ = h.Close()
	h = startHost(t, Options{Home: home, Servers: []Endpoint{srv}})
	if d := find(h); d.Changed {
		t.Fatalf("flagged on the next connect after Accept: %+v", d)
	}
	if _, err := h.Accept([]engine.ToolID{"t999"}); err == nil {
		t.Fatal("Accept of an unknown id succeeded")
	}
	_ = h.Close()

	// Back to the first definition: flagged again. With an approval store
	// that fails closed, Accept fails with its code and the tool stays
	// flagged (nothing is pinned).
	if err := os.Remove(filepath.Join(srv.Stdio.Cwd, "rugpull")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(approvals.Path(), []byte("not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h = startHost(t, Options{Home: home, Servers: []Endpoint{srv}})
	d = find(h)
	if !d.Changed {
		t.Fatal("a definition changed back from the accepted one is not flagged")
	}
	_, err = h.Accept([]engine.ToolID{d.ID})
	var ce *consent.Error
	if !errors.As(err, &ce) || ce.Code() != consent.CodeApprovalsUnreadable || !find(h).Changed {
		t.Fatalf("Accept over a broken approval store: %v, flagged %v", err, find(h).Changed)
	}
	_ = h.Close()
	h = startHost(t, Options{Home: home, Servers: []Endpoint{srv}})
	if !find(h).Changed {
		t.Fatal("a failed Accept pinned the definition")
	}
}
