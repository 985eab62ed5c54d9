package session

import (
	"testing"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host/config"
)

// Headless says what a headless call needs as that invocation decides it:
// --yes unless tools_auto_approve or a remembered approval clears the call
// (always for the ad-hoc server), and a stdio server's digest unless a
// remembered grant approves it — what this session approved once does not
// carry over.
func TestHeadlessNeedsOnlyWhatIsNotRemembered(t *testing.T) {
	opts := testOptions(t)
	srv := stdio(t, "a")
	s := New(opts, []config.Server{srv})
	def := testDef(false)
	ds, _, err := s.Decide()
	if err != nil || len(ds) != 1 {
		t.Fatal(ds, err)
	}
	digest := ds[0].Server.Digest
	s.Decider().ApproveOnce(digest) // this session only

	n, err := s.Headless(def, false)
	if err != nil || !n.Yes || n.AllowStdio != digest {
		t.Fatalf("approved once, asked about: %+v, %v", n, err)
	}
	if n, _ := s.Headless(def, true); !n.Yes || n.AllowStdio != "" {
		t.Errorf("ad hoc (a typed --stdio needs no digest, and --yes always): %+v", n)
	}

	// Remembered: the grant and the approval of this definition.
	if err := s.Record(ds[0].Server, ApproveRemember); err != nil {
		t.Fatal(err)
	}
	if err := s.Approve(def); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Headless(def, false); err != nil || n.Yes || n.AllowStdio != "" {
		t.Errorf("remembered: %+v, %v", n, err)
	}
	if n, _ := s.Headless(testDef(true), false); !n.Yes {
		t.Errorf("a changed definition cleared without --yes: %+v", n)
	}
	if n, _ := s.Headless(def, true); !n.Yes {
		t.Errorf("the ad-hoc server cleared by a remembered approval: %+v", n)
	}

	// tools_auto_approve clears the call headless too.
	srv.ToolsAutoApprove = []string{"echo"}
	s = New(testOptions(t), []config.Server{srv})
	if n, _ := s.Headless(def, false); n.Yes || n.AllowStdio == "" {
		t.Errorf("auto-approved, not granted in this home: %+v", n)
	}
	_ = consent.ByGrant
}
