package host

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/tasks"
)

// The raw request path carries a request the SDK has no API for and takes
// its answer off the stream before the SDK sees it (ping: a method every
// server answers).
func TestRawCallAnswerIsTakenOffTheStream(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{memoryServer(t, "m", inprocServer())}})
	c := h.connNamed("m")
	for range 3 {
		var out json.RawMessage
		if err := c.rawCall(context.Background(), "ping", map[string]any{}, &out); err != nil {
			t.Fatal(err)
		}
		if string(out) != "{}" {
			t.Fatalf("ping answered %s", out)
		}
	}
	// The SDK's own requests still get their answers.
	if got := callText(t, h, "mcp_m_echo", `{"message":"after"}`); got != "after" {
		t.Fatalf("echo = %q", got)
	}
	// A server that declares no tasks is refused before anything is sent.
	if _, err := h.Tasks(context.Background(), "m"); codeOf(err) != failure.CodeNotOffered {
		t.Errorf("tasks of a server without tasks: %v, want %s", err, failure.CodeNotOffered)
	}
}

// Streamable HTTP is read by the SDK alone: no raw path there (E925).
func TestTasksRefusedOverStreamableHTTP(t *testing.T) {
	base := serveHTTP(t, inprocServer())
	g := netguard.New()
	h := startHost(t, Options{Guard: g, Servers: []Endpoint{networkServer(t, g, "n", TransportHTTP, base+"/mcp")}})
	if _, err := h.Tasks(context.Background(), "n"); codeOf(err) != failure.CodeNoRawPath {
		t.Errorf("tasks over Streamable HTTP: %v, want %s", err, failure.CodeNoRawPath)
	}
}

// server-everything runs simulate-research-query as a task: created at
// once, polled through its stages, listed, its result fetched when done;
// a second one is cancelled.
func TestPeerServerEverythingTasks(t *testing.T) {
	p := requirePeers(t)
	h := startHost(t, Options{Environ: os.Environ(), Servers: []Endpoint{peerServer(t, "everything", p.node, p.everything, "stdio")}})
	id, ok := h.Lookup("mcp_everything_simulate-research-query")
	if !ok {
		t.Fatalf("no simulate-research-query: %v", toolNames(h))
	}
	ctx := context.Background()
	task, res, err := h.CallTask(ctx, id, json.RawMessage(`{"topic":"tides"}`), time.Minute)
	if err != nil || task == nil || res != nil {
		t.Fatalf("CallTask = %+v, %v, %v", task, res, err)
	}
	if task.Status != TaskWorking || task.Server != "everything" {
		t.Errorf("created %+v", task)
	}
	statuses := map[string]bool{}
	for !task.Terminal() {
		time.Sleep(200 * time.Millisecond)
		if task, err = h.GetTask(ctx, "everything", task.TaskID); err != nil {
			t.Fatal(err)
		}
		statuses[task.StatusMessage] = true
	}
	if task.Status != TaskCompleted || len(statuses) < 2 {
		t.Fatalf("ended %+v after status messages %v", task, statuses)
	}
	list, err := h.Tasks(ctx, "everything")
	if err != nil || len(list) == 0 || list[0].TaskID == "" {
		t.Fatalf("tasks/list = %+v, %v", list, err)
	}
	got, err := h.TaskResult(ctx, "everything", task.TaskID)
	if err != nil || !strings.Contains(got.Text(), "Research Report: tides") {
		t.Fatalf("tasks/result = %+v, %v", got, err)
	}

	second, _, err := h.CallTask(ctx, id, json.RawMessage(`{"topic":"moons"}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	cancelled, err := h.CancelTask(ctx, "everything", second.TaskID)
	if err != nil || cancelled.Status != TaskCancelled {
		t.Fatalf("tasks/cancel = %+v, %v", cancelled, err)
	}
	// The SDK's own traffic is untouched by ours.
	if got := callText(t, h, "mcp_everything_echo", `{"message":"still"}`); got != "Echo: still" {
		t.Errorf("echo = %q", got)
	}
}

// A task id over 256 bytes (or empty, or not plain text) from a server is
// E926 naming the server, never an uncoded message.
func TestTaskIDOutOfBoundsIsCoded(t *testing.T) {
	c := &conn{srv: Endpoint{Name: "tasky"}}
	for _, id := range []string{strings.Repeat("t", 257), "", "a\x1b[2Jb"} {
		_, err := c.task(tasks.Wire{TaskID: id, Status: TaskWorking})
		var he *failure.Error
		if fault.CodeOf(err, "") != failure.CodeBadTask || !errors.As(err, &he) || he.Server != "tasky" || fault.ExitOf(err) != fault.ExitFailure {
			t.Errorf("task id of %d bytes: %v", len(id), err)
		}
	}
	if task, err := c.task(tasks.Wire{TaskID: strings.Repeat("t", 256), Status: TaskWorking}); err != nil || len(task.TaskID) != 256 {
		t.Fatalf("a 256-byte id: %v", err)
	}
}
