package inbound

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
)

type rpcLine struct {
	ID     any             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    struct {
			Code fault.Code `json:"code"`
		} `json:"data"`
	} `json:"error"`
}

// FuzzStdioFilter: whatever arrives on stdin, the SDK is handed only lines
// that are one JSON-RPC message (or batch), each ending in a newline, and
// everything written back is one JSON-RPC error per refused line.
func FuzzStdioFilter(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
		"garbage\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r\n",
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]` + "\n[]\n",
		`{"a":"\"[[["}` + "\n" + `{"jsonrpc":"2.0","id":"s","result":{}}`,
		strings.Repeat("[", 600) + "\n",
		"\n\n \t\n",
		`{"jsonrpc":"2.0","id":1,"method":"ping"}{"x":1}` + "\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		flt := NewStdioFilter(bytes.NewReader(data), NewLockedWriter(&out))
		passed, err := io.ReadAll(flt)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		for _, line := range bytes.SplitAfter(passed, []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			if line[len(line)-1] != '\n' {
				t.Fatalf("a passed line without its newline: %q", line)
			}
			if _, e, _ := checkMessage(bytes.TrimSpace(line)); e != nil {
				t.Fatalf("passed a line that is not a message: %q", line)
			}
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			// JSON-RPC 2.0: an error for a request whose id cannot be read has
			// id null (the SDK's own decoder refuses a null id, so a plain decode)
			var l struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				rpcLine
			}
			if err := json.Unmarshal(line, &l); err != nil || l.JSONRPC != "2.0" || string(l.ID) != "null" || l.Error == nil ||
				!strings.HasPrefix(l.Error.Message, string(l.Error.Data.Code)+": ") {
				t.Fatalf("refusal %q is not a coded JSON-RPC error with id null: %v", line, err)
			}
		}
	})
}

// With Drain, the end of the input waits until every request passed has
// been answered: the server's reader sees EOF only after the answer to the
// last request is written (or the client cancelled it, or ctx ended).
func TestDrainHoldsTheEndUntilAnswered(t *testing.T) {
	run := func(t *testing.T, input string, ctx context.Context) (*LockedWriter, <-chan string, <-chan struct{}) {
		var out bytes.Buffer
		w := NewLockedWriter(&out)
		f := NewStdioFilter(strings.NewReader(input), w).Drain(ctx, time.Minute)
		lines, done := make(chan string, 8), make(chan struct{})
		go func() {
			defer close(done)
			br := bufio.NewReader(f)
			for {
				l, err := br.ReadString('\n')
				if l != "" {
					lines <- l
				}
				if err != nil {
					return
				}
			}
		}()
		return w, lines, done
	}
	req := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}` + "\n"
	w, lines, done := run(t, req+`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`+"\n", context.Background())
	<-lines
	<-lines
	select {
	case <-done:
		t.Fatal("the end of the input reached the server before the request was answered")
	default:
	}
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":8,"result":{}}` + "\n")) // another id: still open
	select {
	case <-done:
		t.Fatal("an answer to another id released the end")
	default:
	}
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":7,"result":{}}` + "\n"))
	select {
	case <-done:
	case <-time.After(30 * time.Second): // a hang guard only
		t.Fatal("the answer did not release the end of the input")
	}

	// A request the client cancelled needs no answer.
	_, lines, done = run(t, req+`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`+"\n", context.Background())
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a cancelled request held the end")
	}
	// The server's own end (ctx) is not waited past.
	ctx, cancel := context.WithCancel(context.Background())
	_, lines, done = run(t, req, ctx)
	<-lines
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a cancelled context did not release the end")
	}
}
