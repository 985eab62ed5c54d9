package inbound

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

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
			if e, _ := checkMessage(bytes.TrimSpace(line)); e != nil {
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
