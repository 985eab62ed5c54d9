package direct

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// parseLoadID reads only ids of the load path's own shape.
func TestParseLoadID(t *testing.T) {
	t.Parallel()
	for raw, ok := range map[string]bool{
		`"relavium-load-3-17"`: true,
		`"relavium-load-3-"`:   false,
		`"relavium-load--1"`:   false,
		`"relavium-load-3--1"`: false,
		`"relavium-raw-3"`:     false,
		`17`:                   false,
		`"relavium-load-x-1"`:  false,
	} {
		k, i, got := parseLoadID(json.RawMessage(raw))
		if got != ok || (ok && (k != 3 || i != 17)) {
			t.Errorf("parseLoadID(%s) = %d, %d, %v", raw, k, i, got)
		}
	}
}

// Whatever a server writes, the load tap passes every byte through except
// whole lines answering an open pipe's requests, each reported once: no
// panic, no byte lost, reordered or invented for the SDK.
func FuzzLoadLines(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":"relavium-load-1-4","result":{"isError":true}}` + "\n" + `{"jsonrpc":"2.0","id":3,"result":{}}` + "\n"))
	f.Add([]byte(`{"id":"relavium-load-1-x"}` + "\n" + `{"result":5,"id":"relavium-load-1-2"}` + "\nbanner\n" + `{"error":{"code":-32601},"id":"relavium-load-2-9"}`))
	f.Add([]byte(`{"id":"relavium-load-1-1","result":{"content":[{"type":"text","text":"\"relavium-load-1-7\""}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l := NewLoadLines(io.NopCloser(bytes.NewReader(data)))
		reported := map[int]int{}
		l.pipes[1] = &LoadPipe{k: 1, tool: true, answer: func(i int, _ string) { reported[i]++ }}
		l.pipes[2] = nil // a pipe closed: its answers are taken, not reported
		l.open.Store(2)
		got, err := io.ReadAll(l)
		if err != nil {
			t.Fatal(err)
		}
		// What was taken is whole lines: the output is the input with some
		// lines removed, in order.
		var want bytes.Buffer
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			if len(line) > 0 && !l.taken(line) {
				want.Write(line)
			}
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("passed on %q, want %q", got, want.Bytes())
		}
		for i, n := range reported {
			if n != 1 {
				t.Fatalf("request %d reported %d times", i, n)
			}
		}
	})
}

// taken reports whether the tap takes line (the fuzz test's oracle: a
// line of an open or closed pipe's id, whole and within the bound).
func (l *LoadLines) taken(line []byte) bool {
	if len(line) > maxLoadLine || !bytes.Contains(line, []byte(loadMarker)) {
		return false
	}
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil {
		return false
	}
	k, _, ok := parseLoadID(m.ID)
	_, known := l.pipes[k]
	return ok && known
}
