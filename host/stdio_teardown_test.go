package host

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/relavium/relavium/host/proc"
)

func TestCloseReapsGrandchildrenAndStubbornServers(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "gc", "grandchild"), stdioServer(t, "stubborn", "stubborn")}})
	gcPID, err := strconv.Atoi(callText(t, h, "mcp_gc_grandchild_pid", `{}`))
	if err != nil || !processAlive(gcPID) {
		t.Fatalf("grandchild pid %d alive=%v err=%v", gcPID, processAlive(gcPID), err)
	}
	pids := h.PIDs()
	if len(pids) != 2 {
		t.Fatalf("PIDs = %v", pids)
	}
	began := time.Now()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Close took %v", time.Since(began))
	assertNoProcesses(t, append(pids, gcPID)...)
}

// A grandchild that calls setsid (leaving the server's process group) dies
// with its server: it is recorded below the server while it runs and
// killed at teardown. So does one orphaned by a double fork whose middle
// process lived long enough to be seen (the orphan comes back to the
// subreaper, is killed and reaped). Another server's processes are not
// touched by the first one's teardown.
func TestCloseKillsSetsidEscapees(t *testing.T) {
	for _, mode := range []string{"escapee", "daemon"} {
		t.Run(mode, func(t *testing.T) {
			srv := stdioServer(t, "e", mode)
			if mode == "daemon" {
				srv.Stdio.Args = append(srv.Stdio.Args, "-delay-exit", "300ms")
			}
			other := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "o", "escapee")}})
			otherGC, err := strconv.Atoi(callText(t, other, "mcp_o_grandchild_pid", `{}`))
			if err != nil || !processAlive(otherGC) {
				t.Fatalf("other grandchild %d: %v", otherGC, err)
			}
			h := startHost(t, Options{Servers: []Endpoint{srv}})
			gc, err := strconv.Atoi(callText(t, h, "mcp_e_grandchild_pid", `{}`))
			if err != nil || !processAlive(gc) {
				t.Fatalf("grandchild pid %d alive=%v err=%v", gc, processAlive(gc), err)
			}
			if st, _ := proc.ReadProcStat(gc); st.Pgrp == h.PIDs()[0] {
				t.Fatalf("the grandchild did not leave the server's group: %+v", st)
			}
			if mode == "daemon" {
				// Wait for the middle process to exit: the grandchild is an
				// orphan, reparented to this (subreaper) process.
				for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
					if st, ok := proc.ReadProcStat(gc); ok && st.Ppid == os.Getpid() {
						break
					}
				}
				if st, _ := proc.ReadProcStat(gc); st.Ppid != os.Getpid() {
					t.Fatalf("the orphan was not reparented to the subreaper: %+v", st)
				}
			}
			pids := h.PIDs()
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}
			if _, ok := proc.ReadProcStat(gc); ok {
				st, _ := proc.ReadProcStat(gc)
				t.Fatalf("the setsid grandchild %d survives (or is an unreaped zombie): %+v", gc, st)
			}
			for _, p := range pids {
				if processAlive(p) {
					t.Errorf("server %d survives", p)
				}
			}
			if !processAlive(otherGC) {
				t.Fatalf("closing one host killed another server's grandchild %d", otherGC)
			}
			_ = other.Close()
			if _, ok := proc.ReadProcStat(otherGC); ok {
				t.Fatalf("the other setsid grandchild %d survives its own teardown", otherGC)
			}
			assertNoProcesses(t, append(pids, gc, otherGC)...)
		})
	}
}

// A recorded orphan that dies while its server still runs is reaped by the
// walk (relavium is its parent now, as subreaper): no zombie piles up.
func TestDeadOrphanIsReapedWhileTheServerRuns(t *testing.T) {
	srv := stdioServer(t, "d", "daemon")
	srv.Stdio.Args = append(srv.Stdio.Args, "-delay-exit", "300ms")
	h := startHost(t, Options{Servers: []Endpoint{srv}})
	gc, err := strconv.Atoi(callText(t, h, "mcp_d_grandchild_pid", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if st, ok := proc.ReadProcStat(gc); ok && st.Ppid == os.Getpid() {
			break
		}
	}
	if st, _ := proc.ReadProcStat(gc); st.Ppid != os.Getpid() {
		t.Fatalf("the orphan was not reparented to the subreaper: %+v", st)
	}
	_ = syscall.Kill(gc, syscall.SIGKILL)
	gone := false
	for end := time.Now().Add(10 * time.Second); !gone && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		_, ok := proc.ReadProcStat(gc)
		gone = !ok
	}
	if !gone {
		st, _ := proc.ReadProcStat(gc)
		t.Fatalf("the dead orphan %d was not reaped: %+v", gc, st)
	}
	if got := callText(t, h, "mcp_d_echo", `{"message":"still"}`); got != "still" {
		t.Fatalf("the server after its orphan died: %q", got)
	}
}
