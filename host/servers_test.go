package host

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/proc"
)

// TestAddRemoveReconnect changes a running host's server set: an added
// server's tools join the catalogue beside the others (whose ids stay),
// Remove takes its tools out and leaves no process of it behind, Reconnect
// starts a new process with the same tools.
func TestAddRemoveReconnect(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec})
	if len(h.Tools()) != 0 {
		t.Fatalf("an empty host has tools: %v", toolNames(h))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := h.Add(ctx, stdioServer(t, "a", "ok")); err != nil {
		t.Fatal(err)
	}
	idA, ok := h.Lookup("mcp_a_echo")
	if !ok {
		t.Fatalf("a's tools not admitted: %v", toolNames(h))
	}
	if err := h.Add(ctx, stdioServer(t, "b", "ok")); err != nil {
		t.Fatal(err)
	}
	if id, _ := h.Lookup("mcp_a_echo"); id != idA {
		t.Errorf("adding b renumbered a's tool: %s -> %s", idA, id)
	}
	if def, ok := h.Tool("mcp_b_echo"); !ok || def.Server != "b" || def.Tool != "echo" || def.ID == "" {
		t.Errorf("Tool(mcp_b_echo) = %+v, %v", def, ok)
	}
	if got := callText(t, h, "mcp_b_echo", `{"message":"hi b"}`); got != "hi b" {
		t.Errorf("b echo = %q", got)
	}
	if err := h.Add(ctx, stdioServer(t, "a", "ok")); codeOf(err) != failure.CodeBadOptions {
		t.Errorf("a second a: %v, want %s", err, failure.CodeBadOptions)
	}
	if n := len(h.Servers()); n != 2 {
		t.Errorf("%d servers, want 2", n)
	}
	// Each server's skipped tool was reported once, when it joined.
	if ev := rec.ofType(engine.EventToolSkipped); len(ev) != 2 {
		t.Errorf("%d mcp:tool_skipped events, want 2", len(ev))
	}

	pidA := serverPID(t, h, "a")
	if err := h.Remove("a"); err != nil {
		t.Fatal(err)
	}
	if processAlive(pidA) {
		t.Errorf("a's process %d outlived Remove", pidA)
	}
	if live, _ := proc.LiveGroupMembers(pidA); len(live) > 0 {
		t.Errorf("a's process group outlived Remove: %v", live)
	}
	if _, ok := h.Lookup("mcp_a_echo"); ok {
		t.Error("a removed server's tool is still in the catalogue")
	}
	if _, err := h.Call(ctx, idA, nil, engine.CallOptions{}); codeOf(err) != failure.CodeUnknownTool {
		t.Errorf("call of a removed tool: %v, want %s", err, failure.CodeUnknownTool)
	}
	if states := rec.serverStates("a"); states[len(states)-1] != engine.StateClosed {
		t.Errorf("a's states = %v, want closed last", states)
	}
	if got := callText(t, h, "mcp_b_echo", `{"message":"still"}`); got != "still" {
		t.Errorf("b after a left = %q", got)
	}
	if err := h.Remove("a"); err != nil {
		t.Errorf("removing an absent server: %v", err)
	}

	pidB := serverPID(t, h, "b")
	idB, _ := h.Lookup("mcp_b_echo")
	if err := h.Reconnect(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if processAlive(pidB) {
		t.Errorf("b's old process %d outlived Reconnect", pidB)
	}
	if p := serverPID(t, h, "b"); p == pidB {
		t.Error("Reconnect kept the old process")
	}
	if id, ok := h.Lookup("mcp_b_echo"); !ok || id == idB {
		t.Errorf("reconnected tool id %q (ok=%v), old %q: a new connection's tools get new ids", id, ok, idB)
	}
	if got := callText(t, h, "mcp_b_echo", `{"message":"again"}`); got != "again" {
		t.Errorf("b after reconnect = %q", got)
	}
	if err := h.Reconnect(ctx, "nope"); codeOf(err) != failure.CodeServerNotReady {
		t.Errorf("reconnect of an unknown server: %v", err)
	}
	_ = h.Close()
	assertNoProcesses(t, pidA, pidB)
}

// TestAddFailureLeavesNothing: a server that fails its start is not in the
// set, its failure is the error, and no process of it is left.
func TestAddFailureLeavesNothing(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{stdioServer(t, "ok", "ok")}})
	err := h.Add(context.Background(), stdioServer(t, "bad", "exit-early"))
	if err == nil || !strings.HasPrefix(string(codeOf(err)), "E50") {
		t.Fatalf("Add of a failing server: %v", err)
	}
	if h.Has("bad") || len(h.Servers()) != 1 {
		t.Errorf("a failed Add is in the set: %+v", h.Servers())
	}
	if states := rec.serverStates("bad"); len(states) == 0 || states[len(states)-1] != engine.StateFailed {
		t.Errorf("bad's states = %v, want failed last", states)
	}
	if got := callText(t, h, "mcp_ok_echo", `{"message":"x"}`); got != "x" {
		t.Errorf("ok after a failed add = %q", got)
	}
	_ = h.Close()
	assertNoProcesses(t)
}

// TestRemoveCallsOffAnAddUnderWay: Remove of a server still connecting
// ends its Add, and Close waits for Adds under way; nothing survives.
func TestRemoveCallsOffAnAddUnderWay(t *testing.T) {
	h := startHost(t, Options{})
	errs := make(chan error, 2)
	go func() { errs <- h.Add(context.Background(), stdioServer(t, "hang", "no-init")) }()
	go func() { errs <- h.Add(context.Background(), stdioServer(t, "hang2", "no-init")) }()
	waitFor(t, func() bool { return len(h.PIDs()) == 2 })
	if err := h.Remove("hang"); err != nil {
		t.Fatal(err)
	}
	if err := <-errs; codeOf(err) != failure.CodeCallCancelled {
		t.Errorf("the called-off Add: %v, want %s", err, failure.CodeCallCancelled)
	}
	_ = h.Close()
	if err := <-errs; err == nil {
		t.Error("an Add under way at Close succeeded")
	}
	if h.Has("hang") || h.Has("hang2") {
		t.Error("a called-off server is in the set")
	}
	assertNoProcesses(t)
}

// TestConcurrentAddRemoveCall changes the set from several goroutines while
// calls run (under -race): every call either answers or fails coded, and
// nothing survives Close.
func TestConcurrentAddRemoveCall(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "base", "ok")}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i := range 3 {
		name := "s" + strconv.Itoa(i)
		srv := stdioServer(t, name, "ok")
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2 {
				if err := h.Add(ctx, srv); err != nil {
					t.Errorf("add %s: %v", name, err)
					return
				}
				if id, ok := h.Lookup("mcp_" + name + "_echo"); ok {
					if _, err := h.Call(ctx, id, []byte(`{"message":"x"}`), engine.CallOptions{}); err != nil && codeOf(err) == "" {
						t.Errorf("uncoded call error: %v", err)
					}
				}
				if err := h.Reconnect(ctx, name); err != nil {
					t.Errorf("reconnect %s: %v", name, err)
				}
				if err := h.Remove(name); err != nil {
					t.Errorf("remove %s: %v", name, err)
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 20 {
			_ = h.Tools()
			_ = h.Servers()
			if got := callText(t, h, "mcp_base_echo", `{"message":"b"}`); got != "b" {
				t.Errorf("base echo = %q", got)
			}
		}
	}()
	wg.Wait()
	if names := toolNames(h); len(names) == 0 || !strings.HasPrefix(names[0], "mcp_base_") {
		t.Errorf("after the churn: %v", names)
	}
	_ = h.Close()
	assertNoProcesses(t)
}

func serverPID(t *testing.T, h *Host, name string) int {
	t.Helper()
	for _, s := range h.Servers() {
		if s.Name == name && s.PID > 0 {
			return s.PID
		}
	}
	t.Fatalf("no pid for %s in %+v", name, h.Servers())
	return 0
}

// waitFor polls cond (a structural wait, not a timing assertion).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
