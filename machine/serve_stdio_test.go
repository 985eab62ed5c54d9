package machine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/inbound"
)

// rpcLine is one JSON-RPC response the server wrote.
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

// A garbage, non-message, too deep or oversize line on `relavium mcp serve
// --transport stdio` is answered with a coded JSON-RPC error (id null) and
// the session goes on: the next request is answered.
func TestServeStdioRefusesBadLinesAndGoesOn(t *testing.T) {
	f := newServeFixture(t)
	cmd := exec.Command(f.bin, "mcp", "serve", "--transport", "stdio", "--project", f.project)
	cmd.Env = f.env()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := make(chan rpcLine, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		for sc.Scan() {
			var l rpcLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Errorf("the server wrote a line that is not JSON: %q", sc.Text())
				return
			}
			lines <- l
		}
	}()
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(stdin, s); err != nil {
			t.Fatalf("write: %v (stderr %s)", err, stderr.String())
		}
	}
	next := func() rpcLine {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the server ended the session; stderr: %s", stderr.String())
			}
			return l
		case <-time.After(30 * time.Second):
			t.Fatalf("no answer; stderr: %s", stderr.String())
		}
		return rpcLine{}
	}
	wantRefusal := func(what string, rpcCode int, code fault.Code) {
		t.Helper()
		l := next()
		if l.ID != nil || l.Error == nil || l.Error.Code != rpcCode || l.Error.Data.Code != code || !strings.HasPrefix(l.Error.Message, string(code)+": ") {
			t.Fatalf("%s: want id null, %d, %s; got %+v", what, rpcCode, code, l)
		}
	}
	ping := func(id int) {
		t.Helper()
		send(`{"jsonrpc":"2.0","id":` + pidText(id) + `,"method":"ping"}` + "\n")
		if l := next(); l.Error != nil || l.ID != float64(id) {
			t.Fatalf("ping %d after a refused line: %+v", id, l)
		}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	if l := next(); l.ID != float64(1) || l.Error != nil {
		t.Fatalf("initialize: %+v", l)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")

	send("this is not json\n")
	wantRefusal("garbage", inbound.ParseError, inbound.CodeStdioNotMessage)
	ping(2)

	send("\n   \r\n") // blank lines are skipped, not answered
	send(`{"hello":"world"}` + "\n")
	wantRefusal("JSON that is not a message", inbound.InvalidRequest, inbound.CodeStdioNotMessage)
	send("[]\n")
	wantRefusal("empty batch", inbound.InvalidRequest, inbound.CodeStdioNotMessage)
	ping(3)

	deep := strings.Repeat("[", 200000) + strings.Repeat("]", 200000)
	send(deep + "\n")
	wantRefusal("deep nesting", inbound.InvalidRequest, inbound.CodeStdioTooDeep)
	ping(4)

	huge := `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"` + strings.Repeat("a", inbound.MaxStdioLineBytes) + `"}}`
	send(huge + "\n")
	wantRefusal("oversize line", inbound.InvalidRequest, inbound.CodeStdioLineTooBig)
	ping(6)

	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v on EOF; stderr %s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not exit on EOF")
	}
}

// TestServeStdoutEscapes: mcp serve over stdio writes each JSON-RPC message
// through EscapeJSON; the message decodes to the same value.
func TestServeStdoutEscapes(t *testing.T) {
	var b bytes.Buffer
	msg := []byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"a\u009b2J\u202e\U000e0041\"}}\n")
	n, err := stdoutCloser{&b}.Write(msg)
	if err != nil || n != len(msg) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if !utf8.Valid(b.Bytes()) {
		t.Fatalf("not UTF-8: %q", b.Bytes())
	}
	for i, r := range b.String() {
		if v := sanitize.Check(string(r)); r != '\n' && v != nil {
			t.Fatalf("raw %s U+%04X at byte %d: %q", v.Class, r, i, b.Bytes())
		}
	}
	var got, want any
	if json.Unmarshal(b.Bytes(), &got) != nil || json.Unmarshal(msg, &want) != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%q decodes to %v, want %v", b.Bytes(), got, want)
	}
}

// A client that writes its requests and closes stdin at once still gets
// every answer: the end of the input waits for the requests in flight (a
// tools/call runs a child, which takes longer than reading EOF).
func TestServeStdioAnswersRequestsBeforeTheInputEnded(t *testing.T) {
	f := newServeFixture(t)
	cmd := exec.Command(f.bin, "mcp", "serve", "--transport", "stdio", "--project", f.project)
	cmd.Env = f.env()
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"relavium-version","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
	}, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcp serve: %v: %s", err, stderr.String())
	}
	got := map[float64]bool{}
	for line := range strings.Lines(stdout.String()) {
		var l rpcLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		if id, ok := l.ID.(float64); ok && l.Error == nil && l.Result != nil {
			got[id] = true
		}
	}
	if !got[1] || !got[2] || !got[3] {
		t.Fatalf("answered %v, want 1, 2 and 3:\n%s\n%s", got, stdout.String(), stderr.String())
	}
}
