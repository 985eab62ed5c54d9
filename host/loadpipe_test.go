package host

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/relavium/relavium/host/failure"
)

// answers collects a load pipe's reports.
type answers struct {
	mu   sync.Mutex
	keys map[int]string
	got  chan struct{}
}

func newAnswers() *answers { return &answers{keys: map[int]string{}, got: make(chan struct{}, 1024)} }

func (a *answers) answer(i int, key string) {
	a.mu.Lock()
	if _, dup := a.keys[i]; dup {
		a.keys[-1-i] = "duplicate"
	}
	a.keys[i] = key
	a.mu.Unlock()
	a.got <- struct{}{}
}

func (a *answers) wait(t *testing.T, n int) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for range n {
		select {
		case <-a.got:
		case <-timeout:
			t.Fatalf("fewer than %d answers reported", n)
		}
	}
}

// A load pipe on a real stdio server: its requests' answers are taken off
// the server's stdout and classified (success, a tool's isError, a JSON-RPC
// error), an answer whose text carries a load id is still read by its own
// id, and the SDK's session on the same connection goes on untouched,
// before, during and after the pipe — the late answers to a closed pipe
// included.
func TestLoadPipeOnStdio(t *testing.T) {
	t.Parallel()
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "s", "ok")}})
	if !h.Pipelined("s") {
		t.Fatal("a stdio connection is not pipelined")
	}
	params := []json.RawMessage{
		json.RawMessage(`{"name":"echo","arguments":{"message":"\"relavium-load-1-99\" is text, not an id"}}`),
		json.RawMessage(`{"name":"fail","arguments":{}}`),
		json.RawMessage(`{"name":"no-such-tool","arguments":{}}`),
	}
	a := newAnswers()
	p, err := h.LoadPipe("s", "tools/call", params, a.answer)
	if err != nil {
		t.Fatal(err)
	}
	const n = 60
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the SDK's own calls, interleaved with the pipe's
		defer wg.Done()
		for range 10 {
			if got := callText(t, h, "mcp_s_echo", `{"message":"sdk"}`); got != "sdk" {
				t.Errorf("an SDK call during the pipe answered %q", got)
			}
		}
	}()
	for i := 0; i < n; i += 3 { // in batches, as a sender catching up writes them
		if err := p.Send([]int{i, i + 1, i + 2}); err != nil {
			t.Fatal(err)
		}
	}
	a.wait(t, n)
	wg.Wait()
	a.mu.Lock()
	for i := range n {
		key, ok := a.keys[i]
		want := []string{"", "isError", "jsonrpc "}[i%3]
		if !ok || (i%3 == 2 && !strings.HasPrefix(key, want)) || (i%3 != 2 && key != want) {
			t.Errorf("request %d (%s) reported %q (reported: %v), want %q", i, params[i%3], key, ok, want)
		}
	}
	if len(a.keys) != n {
		t.Errorf("%d reports for %d requests: %v", len(a.keys), n, a.keys)
	}
	a.mu.Unlock()

	// A request given up is cancelled at the server; a closed pipe reports
	// nothing more, and the answers still coming are not the SDK's.
	slowAnswers := newAnswers()
	slow, err := h.LoadPipe("s", "tools/call", []json.RawMessage{json.RawMessage(`{"name":"slow","arguments":{"ms":30000}}`)}, slowAnswers.answer)
	if err != nil {
		t.Fatal(err)
	}
	if err := slow.Send([]int{0}); err != nil {
		t.Fatal(err)
	}
	p.Close()
	for i := n; i < n+10; i++ {
		if err := p.Send([]int{i}); err != nil {
			t.Fatal(err)
		}
	}
	// The cancellation ends the request at the server (its answer is an
	// error, long before its 30 s). It is said again until it lands: the
	// SDK's server may read it before it has registered the request it
	// names, and ignores a cancellation of an id it does not know.
	deadline := time.Now().Add(30 * time.Second)
	for slow.Cancel(0); ; slow.Cancel(0) {
		slowAnswers.mu.Lock()
		key, ended := slowAnswers.keys[0]
		slowAnswers.mu.Unlock()
		if ended {
			if key == "" {
				t.Fatal("the cancelled load request was answered as a success")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancelled load request was never cancelled at the server")
		}
		time.Sleep(20 * time.Millisecond)
	}
	slow.Close()
	if got := callText(t, h, "mcp_s_echo", `{"message":"after"}`); got != "after" {
		t.Errorf("the SDK's session after the pipe answered %q", got)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.keys) != n {
		t.Errorf("a closed pipe reported: %d reports, want %d", len(a.keys), n)
	}
}

// Only a connection relavium reads line by line carries a pipe: anything
// else is E925 and the caller calls through the SDK.
func TestLoadPipeNeedsStdio(t *testing.T) {
	t.Parallel()
	h := startHost(t, Options{Servers: []Endpoint{memoryServer(t, "m", inprocServer())}})
	if h.Pipelined("m") || h.Pipelined("nobody") {
		t.Fatal("a memory connection (or no connection) reads as pipelined")
	}
	_, err := h.LoadPipe("m", "tools/list", []json.RawMessage{json.RawMessage(`{}`)}, func(int, string) {})
	if codeOf(err) != failure.CodeNoRawPath {
		t.Fatalf("LoadPipe on a memory connection: %v, want %s", err, failure.CodeNoRawPath)
	}
}
