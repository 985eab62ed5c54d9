package session

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/internal/testbin"
)

// The demo server over stdio (the real binary, `relavium demo-server`):
// toggle_extra_tool changes its tool list, and the session's host walks
// the list again on notifications/tools/list_changed. The added tool is
// admitted and callable, the flawed tools stay skipped (discovery's checks
// ran again), and the added tool is pinned on first sight: removed and
// added back with another description, it is flagged as changed.
func TestDemoServerListChanged(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{}
	opts := testOptions(t)
	opts.Events = rec
	opts.Environ = []string{"HOME=" + t.TempDir()} // the demo server needs a home; nothing else of ours
	demo := config.Server{Name: "demo", Transport: host.TransportStdio, Command: testbin.Relavium(t),
		Args: []string{"demo-server"}, Dir: t.TempDir()}
	s := New(opts, []config.Server{demo})
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
	if err := lv.Connect(ctx, "demo"); err != nil {
		if he := (*failure.Error)(nil); errors.As(err, &he) {
			t.Fatalf("%v (%v, stderr %q)", err, he.ExitStatus, he.StderrTail)
		}
		t.Fatal(err)
	}
	h := lv.Host()
	before := len(h.Tools())
	if _, ok := h.Lookup("mcp_demo_extra_tool"); ok {
		t.Fatal("extra_tool is listed before it was added")
	}
	call := func(name, args string) string {
		t.Helper()
		id, ok := h.Lookup(name)
		if !ok {
			t.Fatalf("%s is not in the session", name)
		}
		res, err := h.Call(ctx, id, json.RawMessage(args), engine.CallOptions{})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		return res.Text()
	}
	// walks counts the tool-list walks reported, and the last one's counts.
	walks := func() (n int, last host.ListChangedData) {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, e := range rec.events {
			if d, ok := e.Data.(host.ListChangedData); ok && e.Type == engine.EventListChanged && d.List == "tools" {
				if d.Error != "" {
					t.Errorf("a walk failed: %s", d.Error)
				}
				n, last = n+1, d
			}
		}
		return n, last
	}
	waitTool := func(what string, present bool) engine.ToolDef {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			def, ok := h.Tool("mcp_demo_extra_tool")
			if ok == present {
				return def
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	call("mcp_demo_toggle_extra_tool", `{}`)
	def := waitTool("extra_tool to be listed", true)
	if def.Changed || def.Digest == "" || len(h.Tools()) != before+1 {
		t.Fatalf("extra_tool after its first listing: %+v (%d tools, %d before)", def, len(h.Tools()), before)
	}
	if got := call("mcp_demo_extra_tool", `{}`); got != "The extra tool answered." {
		t.Errorf("extra_tool answered %q", got)
	}
	if n, last := walks(); n < 1 || last.Tools != before+1 || last.Skipped != 3 {
		t.Errorf("%d walks, the last %+v: want %d tools and the demo's 3 flawed tools skipped", n, last, before+1)
	}

	call("mcp_demo_toggle_extra_tool", `{}`)
	waitTool("extra_tool to be gone", false)
	call("mcp_demo_toggle_extra_tool", `{"changed":true}`)
	again := waitTool("extra_tool to be listed again", true)
	deadline := time.Now().Add(20 * time.Second)
	for !again.Changed && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		again, _ = h.Tool("mcp_demo_extra_tool")
	}
	if !again.Changed || again.Digest == def.Digest {
		t.Fatalf("extra_tool added back with another description is not flagged: %+v (first %s)", again, def.Digest)
	}
}
