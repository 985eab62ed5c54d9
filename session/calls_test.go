package session

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/failure"
)

// callAsker answers every call confirmation with answer and keeps whether
// "always" was offered.
type callAsker struct {
	askerStub
	call    CallAnswer
	offered []bool
}

func (c *callAsker) ConfirmCall(_ context.Context, _ engine.ToolDef, canRemember bool) (CallAnswer, error) {
	c.offered = append(c.offered, canRemember)
	return c.call, nil
}

func testDef(changed bool) engine.ToolDef {
	readOnly := true
	return engine.ToolDef{Name: "mcp_a_echo", Server: "a", Tool: "echo", Digest: "sha256:" + strings.Repeat("1", 64), Changed: changed,
		Annotations: engine.Annotations{ReadOnly: &readOnly}}
}

// A call goes ahead only on the person's word: --yes, tools_auto_approve,
// or a remembered approval of this exact definition; never the server's
// read-only hint. With no one to ask it is E542 with the ways out.
func TestConfirmCallNeedsThePersonsWord(t *testing.T) {
	ctx := context.Background()
	opts := testOptions(t)
	var warned []string
	opts.Warn = func(m string) { warned = append(warned, m) }
	servers := []config.Server{{Name: "a", Transport: host.TransportStdio}}
	s := New(opts, servers)
	def := testDef(false)

	err := s.ConfirmCall(ctx, def, false, false)
	var he *failure.Error
	if !errors.As(err, &he) || he.ErrCode != CodeNeedsYes || he.ExitCode() != 2 {
		t.Fatalf("no one to ask: %v", err)
	}
	if d, ok := he.Data.(*CallNeedsApproval); !ok || len(d.WaysOut) != 3 || !strings.Contains(he.Msg, "read-only hint is its own claim") {
		t.Errorf("E542 data = %+v, msg %q", he.Data, he.Msg)
	}
	if err := s.ConfirmCall(ctx, def, true, false); err != nil {
		t.Errorf("--yes: %v", err)
	}

	// Asked: "always" remembers an approval of this definition, which then
	// clears the next call unasked.
	ask := &callAsker{call: CallAlways}
	opts.Asker = ask
	s = New(opts, servers)
	if err := s.ConfirmCall(ctx, def, false, false); err != nil {
		t.Fatal(err)
	}
	if c, err := s.Clearance(def, false, false); c != consent.ClearedByApproval || err != nil {
		t.Errorf("after always: clearance %q, %v", c, err)
	}
	// A changed definition: always is not offered, an approval does not
	// speak for it, and "always" is a no.
	if err := s.ConfirmCall(ctx, testDef(true), false, false); !errors.As(err, &he) || he.ErrCode != CodeCallRefused {
		t.Errorf("always on a changed definition: %v", err)
	}
	if len(ask.offered) != 2 || !ask.offered[0] || ask.offered[1] {
		t.Errorf("always offered = %v, want [true false]", ask.offered)
	}
	// tools_auto_approve clears; the ad-hoc server has none.
	servers[0].ToolsAutoApprove = []string{"echo"}
	s = New(testOptions(t), servers)
	if c, _ := s.Clearance(def, false, false); c != consent.ClearedByAutoApprove {
		t.Errorf("auto-approve: %q", c)
	}
	if c, _ := s.Clearance(def, false, true); c != "" {
		t.Errorf("the ad-hoc server cleared by %q", c)
	}
	if len(warned) != 0 {
		t.Errorf("warnings on a readable store: %v", warned)
	}
}

// Live keeps one host: servers connect one at a time (here the second
// declared first), the catalogue lists them in declaration order, and a
// disconnected server's tools leave it.
func TestLiveCatalogueInDeclarationOrder(t *testing.T) {
	ctx := context.Background()
	s := New(testOptions(t), []config.Server{stdio(t, "a"), stdio(t, "b")})
	ds, _, err := s.Decide()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		s.Decider().ApproveOnce(d.Server.Digest)
	}
	lv, err := s.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Close()
	for _, n := range []string{"b", "a", "a"} {
		if err := lv.Connect(ctx, n); err != nil {
			t.Fatalf("connect %s: %v", n, err)
		}
	}
	tools, _ := lv.Catalogue()
	if len(tools) < 2 || tools[0].Server != "a" || tools[len(tools)-1].Server != "b" {
		t.Fatalf("catalogue order: %v", tools)
	}
	if err := lv.Connect(ctx, "nope"); err == nil {
		t.Error("an undeclared server connected")
	}
	if err := lv.Disconnect("a"); err != nil {
		t.Fatal(err)
	}
	tools, _ = lv.Catalogue()
	for _, d := range tools {
		if d.Server == "a" {
			t.Fatalf("a disconnected server's tool stays: %s", d.Name)
		}
	}
	if err := lv.Close(); err != nil {
		t.Fatal(err)
	}
	if pids := lv.Host().PIDs(); len(pids) != 0 {
		t.Errorf("children outlived Close: %v", pids)
	}
}
