package discovery

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// chunkReader returns its data a few bytes at a time.
type chunkReader struct {
	data string
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if c.data == "" {
		return 0, io.EOF
	}
	k := min(c.n, len(c.data), len(p))
	copy(p, c.data[:k])
	c.data = c.data[k:]
	return k, nil
}

func (c *chunkReader) Close() error { return nil }

func TestTeeBodyFindsTheResponseInAnyFraming(t *testing.T) {
	id, _ := jsonrpc.MakeID(float64(7))
	resp := `{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"x"}]}}`
	other := `{"jsonrpc":"2.0","id":8,"result":{"tools":[]}}`
	for name, body := range map[string]string{
		"json":       resp,
		"sse lf":     "event: message\ndata: " + other + "\n\ndata: " + resp + "\n\n",
		"sse crlf":   "event: message\r\ndata: " + resp + "\r\n\r\n",
		"sse cr":     "event: message\rdata: " + resp + "\r\r",
		"sse split":  "data: {\"jsonrpc\":\"2.0\",\"id\":7,\ndata: \"result\":{\"tools\":[{\"name\":\"x\"}]}}\n\n",
		"sse no eol": "data:" + resp + "\n\n",
	} {
		for _, chunk := range []int{1, 3, 4096} {
			s := &slot{}
			s.expect(id)
			tb := &teeBody{rc: &chunkReader{data: body, n: chunk}, s: s, sse: strings.HasPrefix(name, "sse")}
			got, err := io.ReadAll(tb)
			if err != nil || string(got) != body {
				t.Fatalf("%s: the body was altered: %v", name, err)
			}
			raw, rpcErr, ok := s.get()
			if !ok || rpcErr != nil || !json.Valid(raw) || !strings.Contains(string(raw), `"name":"x"`) {
				t.Errorf("%s/chunk %d: captured %q %v %v", name, chunk, raw, rpcErr, ok)
			}
		}
	}
}

func TestSlotRefusesASecondRequest(t *testing.T) {
	a, _ := jsonrpc.MakeID(float64(1))
	b, _ := jsonrpc.MakeID(float64(2))
	s := &slot{}
	if !s.expect(a) || s.expect(b) || !s.expect(a) {
		t.Fatal("a slot belongs to its first request only")
	}
}
