package session

import (
	"context"
	"testing"

	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/wire"
)

// The workbench's live session (Open, then Connect one server at a time)
// records through the session's wire hub like a command's start does: a
// protocol view subscribes to Session.Wire.
func TestLiveSessionRecords(t *testing.T) {
	opts := testOptions(t)
	opts.Wire = wire.NewHub("", nil)
	s := New(opts, []config.Server{stdio(t, "a")})
	d, _, err := s.Decide()
	if err != nil || len(d) != 1 {
		t.Fatal(d, err)
	}
	s.Decider().ApproveOnce(d[0].Server.Digest)
	var methods []string
	_, stop := s.Wire().Subscribe(func(r wire.Record) {
		if r.Dir == wire.Send && r.Kind == wire.KindRequest {
			methods = append(methods, r.Method)
		}
	})
	defer stop()
	live, err := s.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if err := live.Connect(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	live.Close()
	if len(methods) < 2 || methods[0] != "initialize" {
		t.Fatalf("recorded requests %v", methods)
	}
}
