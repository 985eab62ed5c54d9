package host

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/proc"
)

// recorder is an Emitter that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []engine.Event
}

func (r *recorder) Emit(e engine.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

func (r *recorder) ofType(typ string) []engine.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []engine.Event
	for _, e := range r.events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// serverStates lists the mcp:server states reported for one server.
func (r *recorder) serverStates(name string) []string {
	var out []string
	for _, e := range r.ofType(engine.EventServer) {
		if d := e.Data.(engine.ServerData); d.Server == name {
			out = append(out, d.State)
		}
	}
	return out
}

// dump is every event as JSON, for "never contains" checks.
func (r *recorder) dump(t *testing.T) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, err := json.Marshal(r.events)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// stdioServer declares the test server in a fresh cwd and resolves it the
// way consent does before approval.
func stdioServer(t testing.TB, name, mode string, env ...consent.EnvVar) Endpoint {
	t.Helper()
	r, err := consent.Resolve(consent.Declaration{
		Name: name, Command: hostileBin, Args: []string{"-mode", mode}, Env: env, Cwd: t.TempDir(),
	}, "")
	if err != nil {
		t.Fatalf("resolve %s: %v", name, err)
	}
	return Endpoint{Name: name, Transport: TransportStdio, Stdio: r}
}

// startHost starts a host that the test closes (Close is idempotent, so a
// test may close it itself first).
func startHost(t *testing.T, opts Options) *Host {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	h, err := Start(ctx, opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

// callTool calls a tool by its namespaced name.
func callTool(t *testing.T, h *Host, ctx context.Context, name, args string, opts engine.CallOptions) (*engine.ToolResult, error) {
	t.Helper()
	id, ok := h.Lookup(name)
	if !ok {
		t.Fatalf("no tool %s; have %v", name, toolNames(h))
	}
	return h.Call(ctx, id, json.RawMessage(args), opts)
}

func toolNames(h *Host) []string {
	var out []string
	for _, d := range h.Tools() {
		out = append(out, d.Name)
	}
	return out
}

// callText calls a tool and returns its text, failing the test on any error.
func callText(t *testing.T, h *Host, name, args string) string {
	t.Helper()
	res, err := callTool(t, h, context.Background(), name, args, engine.CallOptions{})
	return mustText(t, res, err)
}

func mustText(t *testing.T, res *engine.ToolResult, err error) string {
	t.Helper()
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	if res.IsError {
		t.Fatalf("tool error: %s", res.Text())
	}
	return res.Text()
}

func codeOf(err error) fault.Code {
	if c, ok := err.(interface{ Code() fault.Code }); ok {
		return c.Code()
	}
	return ""
}

// processAlive reports whether pid is a live (non-zombie) process.
func processAlive(pid int) bool {
	st, ok := proc.ReadProcStat(pid)
	return ok && st.State != 'Z' && st.State != 'X'
}

// descendants walks /proc for every live process below root.
func descendants(root int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	children := map[int][]int{}
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if st, ok := proc.ReadProcStat(pid); ok && st.State != 'Z' && st.State != 'X' {
			children[st.Ppid] = append(children[st.Ppid], pid)
		}
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// assertNoProcesses proves that nothing relavium spawned survives: no
// descendant of the test process, no live member of any given group, no
// given pid.
func assertNoProcesses(t *testing.T, pids ...int) {
	t.Helper()
	if d := descendants(os.Getpid()); len(d) > 0 {
		t.Errorf("processes survive below the test: %v", d)
	}
	for _, pid := range pids {
		if processAlive(pid) {
			t.Errorf("process %d survives", pid)
		}
		if live, _ := proc.LiveGroupMembers(pid); len(live) > 0 {
			t.Errorf("process group %d still has %v", pid, live)
		}
	}
}

// storeMap is a secret store over a map (expand's tests keep the same).
type storeMap map[string]string

func (m storeMap) Secret(name string) (string, bool, error) { v, ok := m[name]; return v, ok, nil }
