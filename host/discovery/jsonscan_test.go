package discovery

import (
	"encoding/json"
	"strings"
	"testing"
)

// The scanner accepts exactly the JSON encoding/json accepts, and measures
// what the parser builds.
func FuzzScanValue(f *testing.F) {
	for _, s := range append(streamSeeds, `1`, `-0.5e+3`, `"\u00e9\ud800"`, `[1,]`, `{"a" 1}`, `01`, `"a`+"\x01"+`"`, `tru`, ` null `, `{"a":[{},[]]}`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		end, st, err := scanValue(data, 0)
		ok := err == nil && skipWS(data, end) == len(data)
		if ok != json.Valid(data) {
			t.Fatalf("scanValue(%q): ok %v (err %v), json.Valid %v", data, ok, err, json.Valid(data))
		}
		if !ok {
			return
		}
		n, err := parseJSON(data)
		if err != nil {
			t.Fatalf("scanned but does not parse: %q: %v", data, err)
		}
		var count func(n *node, depth int) (values, deep int)
		count = func(n *node, depth int) (int, int) {
			values, deep := 1, depth
			if n.kind == kArray || n.kind == kObject {
				deep = depth + 1
			}
			for _, e := range n.arr {
				v, d := count(e, depth+1)
				values, deep = values+v, max(deep, d)
			}
			for _, m := range n.obj {
				v, d := count(m.val, depth+1)
				values, deep = values+v, max(deep, d)
			}
			return values, deep
		}
		if st.depth <= maxParseDepth {
			if v, d := count(n, 0); v != st.values || d != st.depth {
				t.Fatalf("%q: scanned %d values %d deep, parsed %d values %d deep", data, st.values, st.depth, v, d)
			}
		}
	})
}

// Whatever the stream, the frame reader hands the SDK the same bytes, but
// for at most one line: the pending page, replaced by the stub.
func FuzzFrameReader(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}`+"\n", 3)
	f.Add(`{"jsonrpc":"2.0","method":"x"}`+"\n"+`{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"a"}]}}`, 1)
	f.Add("\n\n{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":[1]}\r\n{}", 64)
	f.Fuzz(func(t *testing.T, stream string, chunk int) {
		if chunk <= 0 || chunk > 1<<16 {
			chunk = 4096
		}
		got, raw, ok := frameCase(t, stream, true, chunk, 1<<20)
		if !ok {
			if got != stream {
				t.Fatalf("nothing taken, but the stream changed: %q -> %q", stream, got)
			}
			return
		}
		if !json.Valid([]byte(raw)) {
			t.Fatalf("took an invalid result %q", raw)
		}
		stub := `{"jsonrpc":"2.0","id":`
		i := strings.Index(got, stub)
		if i < 0 || !strings.HasPrefix(stream, got[:i]) {
			t.Fatalf("the bytes before the stub changed: %q -> %q", stream, got)
		}
		j := strings.Index(got[i:], "\n") + i + 1
		rest := got[j:]
		if !strings.HasSuffix(stream, rest) || !strings.Contains(stream[i:len(stream)-len(rest)], raw) {
			t.Fatalf("the replaced line is not the page's: %q -> %q (page %q)", stream, got, raw)
		}
	})
}
