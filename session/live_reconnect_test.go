package session

import (
	"context"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/config"
)

// A stdio server that exited mid-session is connected afresh by Connect
// (the workbench's r): a new process, its tools back. Before, Connect saw
// the failed server in the set and did nothing.
func TestLiveConnectRestartsAFailedServer(t *testing.T) {
	ctx := context.Background()
	s := New(testOptions(t), []config.Server{stdio(t, "a")})
	ds, _, err := s.Decide()
	if err != nil {
		t.Fatal(err)
	}
	s.Decider().ApproveOnce(ds[0].Server.Digest)
	lv, err := s.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Close()
	if err := lv.Connect(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	h := lv.Host()
	pid := h.Servers()[0].PID
	id, _ := h.Lookup("mcp_a_crash")
	if _, err := h.Call(ctx, id, nil, engine.CallOptions{}); err == nil {
		t.Fatal("crash returned")
	}
	deadline := time.Now().Add(20 * time.Second)
	for !h.Failed("a") { // the watcher marks it failed right after the call's failure
		if time.Now().After(deadline) {
			t.Fatal("the crashed server was never marked failed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := lv.Connect(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	st := h.Servers()
	if len(st) != 1 || st[0].State != engine.StateReady || st[0].PID == pid || st[0].PID == 0 {
		t.Fatalf("after Connect: %+v", st)
	}
	if _, ok := h.Lookup("mcp_a_echo"); !ok {
		t.Error("the restarted server's tools are not back")
	}
}
