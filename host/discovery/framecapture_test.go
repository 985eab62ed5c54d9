package discovery

import (
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// frameCase reads stream through a Capture.Reader with a tools/list slot
// pending for id 7 (stub or not) and returns what the SDK would read and
// what the slot received.
func frameCase(t *testing.T, stream string, stub bool, chunk, limit int) (string, string, bool) {
	t.Helper()
	c := &Capture{pending: map[jsonrpc.ID]*slot{}}
	id, _ := jsonrpc.MakeID(float64(7))
	s := &slot{stub: stub}
	s.expect(id)
	c.register(id, s)
	r := c.Reader(&chunkReader{data: stream, n: chunk})
	if limit > 0 {
		r.(*frameReader).limit = limit
	}
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	raw, _, ok := s.get()
	return string(got), string(raw), ok
}

func TestFrameReaderTakesOnlyThePendingPage(t *testing.T) {
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}` + "\n"
	other := `{"jsonrpc":"2.0","id":8,"result":{"tools":[{"name":"no"}]}}` + "\n"
	page := `{"tools":[{"name":"x","inputSchema":{"type":"object"}}]}`
	resp := `{"id":7, "result":` + page + `,"jsonrpc":"2.0"}` + "\r\n"
	stub := `{"jsonrpc":"2.0","id":7,"result":` + stubPage + "}\n"
	for _, chunk := range []int{1, 5, 4096} {
		got, raw, ok := frameCase(t, note+other+resp+note, true, chunk, 0)
		if got != note+other+stub+note {
			t.Errorf("chunk %d: the SDK reads %q", chunk, got)
		}
		if !ok || raw != page {
			t.Errorf("chunk %d: the slot got %q (%v), want the page as sent", chunk, raw, ok)
		}
	}
	// Where the SDK keeps pages itself, or the line is anything but a
	// plain success for the pending id, the bytes pass unchanged.
	for name, line := range map[string]string{
		"error":        `{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"no"}}`,
		"two ids":      `{"jsonrpc":"2.0","id":7,"id":7,"result":{"tools":[]}}`,
		"method":       `{"jsonrpc":"2.0","id":7,"method":"x","result":{"tools":[]}}`,
		"version":      `{"jsonrpc":"1.0","id":7,"result":{"tools":[]}}`,
		"two values":   `{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}{}`,
		"not json":     `{"jsonrpc":"2.0","id":7,"result":{"tools":[}`,
		"other id":     `{"jsonrpc":"2.0","id":"7","result":{"tools":[]}}`,
		"partial line": `{"jsonrpc":"2.0","id":7,`,
	} {
		in := line + "\n"
		if name == "partial line" {
			in = line // ends at EOF
		}
		got, _, ok := frameCase(t, in, true, 3, 0)
		if got != in || ok {
			t.Errorf("%s: the SDK reads %q, slot delivered %v; want the line unchanged", name, got, ok)
		}
	}
	if got, _, ok := frameCase(t, resp, false, 4096, 0); got != resp || ok {
		t.Errorf("no stub: the SDK reads %q, slot delivered %v; want the line unchanged for the connection capture", got, ok)
	}
	// A line over the bound is passed on whole (the SDK refuses it).
	long := `{"jsonrpc":"2.0","id":7,"result":{"tools":[],"pad":"` + strings.Repeat("p", 300) + `"}}` + "\n"
	if got, _, ok := frameCase(t, long+note, true, 7, 100); got != long+note || ok {
		t.Errorf("over the bound: the SDK reads %q, slot delivered %v", got, ok)
	}
}
