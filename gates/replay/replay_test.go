package replay

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/relavium/relavium/fault"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const sample = `{"seq":1,"server":"s","dir":"send","kind":"request","method":"initialize","id":1,"size":1,"message":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"a"}}}}
{"seq":2,"server":"s","dir":"recv","kind":"response","method":"initialize","id":1,"size":1,"message":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"x","version":"1"}}}}
{"seq":3,"server":"s","dir":"send","kind":"request","method":"tools/call","id":2,"size":1,"message":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"b":1,"a":"x"},"_meta":{"progressToken":9}}}}
{"seq":4,"server":"s","dir":"recv","kind":"error","method":"tools/call","id":2,"size":1,"message":{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"first"}}}
{"seq":5,"server":"s","dir":"send","kind":"request","method":"tools/call","id":3,"size":1,"message":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{"a":"x","b":1.0},"name":"echo"}}}
{"seq":6,"server":"s","dir":"recv","kind":"response","method":"tools/call","id":3,"size":1,"message":{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"second"}]}}}
`

// Requests are matched by method and canonical params (member order,
// number spelling and _meta do not matter), answered in recorded order
// with the last repeating; an unrecorded one is an error naming E951.
func TestScriptAnswers(t *testing.T) {
	rec, err := decode("r", strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	name, err := rec.Pick("")
	if err != nil || name != "s" {
		t.Fatal(name, err)
	}
	s, err := rec.Script(name)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	sc, _ := st.Connect(ctx)
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, sc, s) }()
	cc, _ := ct.Connect(ctx)
	ask := func(id int64, method, params string) *jsonrpc.Response {
		t.Helper()
		rid, _ := jsonrpc.MakeID(float64(id))
		if err := cc.Write(ctx, &jsonrpc.Request{ID: rid, Method: method, Params: json.RawMessage(params)}); err != nil {
			t.Fatal(err)
		}
		m, err := cc.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return m.(*jsonrpc.Response)
	}
	if r := ask(1, "initialize", `{"clientInfo":{"name":"other"}}`); r.Error != nil || !strings.Contains(string(r.Result), "2025-11-25") {
		t.Fatalf("initialize %+v", r)
	}
	if r := ask(2, "tools/call", `{"name":"echo","arguments":{"a":"x","b":1},"_meta":{"progressToken":"z"}}`); r.Error == nil || !strings.Contains(r.Error.Error(), "first") {
		t.Fatalf("first answer %+v", r)
	}
	for range 2 {
		if r := ask(3, "tools/call", `{"arguments":{"b":1,"a":"x"},"name":"echo"}`); r.Error != nil || !strings.Contains(string(r.Result), "second") {
			t.Fatalf("second answer %+v", r)
		}
	}
	if r := ask(4, "tools/call", `{"name":"echo","arguments":{"a":"y"}}`); r.Error == nil || !strings.Contains(r.Error.Error(), "E951") {
		t.Fatalf("unrecorded params %+v", r)
	}
	if r := ask(6, "ping", ``); r.Error != nil || string(r.Result) != "{}" {
		t.Fatalf("ping %+v", r)
	}
	// A client's own log level, at any level, is acknowledged without a
	// recorded twin (the Inspectors ask for one on connect).
	for _, level := range []string{"debug", "emergency"} {
		if r := ask(7, "logging/setLevel", `{"level":"`+level+`"}`); r.Error != nil || string(r.Result) != "{}" {
			t.Fatalf("logging/setLevel %s %+v", level, r)
		}
	}
	if r := ask(8, "initialize", `{"protocolVersion":"2025-03-26","clientInfo":{"name":"inspector-cli","version":"1.0.3"}}`); r.Error != nil || !strings.Contains(string(r.Result), "serverInfo") {
		t.Fatalf("initialize from another client %+v", r)
	}
	if r := ask(5, "prompts/list", `{}`); r.Error == nil || !strings.Contains(r.Error.Error(), "no recorded prompts/list") {
		t.Fatalf("unrecorded method %+v", r)
	}
	cc.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Pick("nope"); err == nil {
		t.Fatal("an unknown server was picked")
	}
}

func FuzzDecodeRecording(f *testing.F) {
	f.Add(sample)
	f.Add("{}\n\n{\"server\":\"s\"}")
	f.Add("not json")
	f.Fuzz(func(t *testing.T, data string) {
		rec, err := decode("f", strings.NewReader(data))
		if err != nil {
			return
		}
		for _, s := range rec.Servers() {
			if sc, err := rec.Script(s); err == nil {
				_, _ = sc.Answer("tools/list", nil)
			}
		}
	})
}

// A FIFO at the recording's path is refused at once (coded), never waited on.
func TestReadRefusesAFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "rec.ndjson")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := Read(p); done <- err }()
	select {
	case err := <-done:
		if fault.CodeOf(err, "") == "" || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("a FIFO recording: %v", err)
		}
	case <-time.After(20 * time.Second): // a hang guard only
		if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("Read blocked on a FIFO")
	}
}
