package stream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/relavium/relavium/fault"
)

func filterAll(t *testing.T, in string) (string, string, *Stray, error) {
	t.Helper()
	var kept bytes.Buffer
	s := &Stray{}
	// One byte at a time: a line's verdict may not depend on read sizes.
	f := NewStdoutFilter(io.NopCloser(iotest.OneByteReader(strings.NewReader(in))), &kept, s, nil, nil)
	out, err := io.ReadAll(f)
	return string(out), kept.String(), s, err
}

// Stray lines are taken off the stream and kept as the server's output;
// messages pass byte for byte, a pretty-printed one (a line inside an open
// value) included.
func TestStdoutFilterSkipsStrayLines(t *testing.T) {
	in := "Server starting...\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n  \n[DEBUG] {not json}\n{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"x\",\n  \"params\": {\"s\": \"a } \\\" {\"}\n}\nbye"
	out, kept, s, err := filterAll(t, in)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n  \n{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"x\",\n  \"params\": {\"s\": \"a } \\\" {\"}\n}\n"
	if out != want {
		t.Fatalf("passed:\n%q\nwant\n%q", out, want)
	}
	if kept != "[stdout] Server starting...\n[stdout] [DEBUG] {not json}\n" {
		t.Fatalf("kept %q", kept)
	}
	if first, n := s.FirstLine(); first != "Server starting..." || n != 2 {
		t.Fatalf("first %q n %d", first, n)
	}
}

// Past the bound the stream fails with E519 naming the first line.
func TestStdoutFilterBound(t *testing.T) {
	in := strings.Repeat("noise\n", maxStrayLines+5) + "{\"jsonrpc\":\"2.0\"}\n"
	_, _, _, err := filterAll(t, in)
	var e *fault.Error
	if !errors.As(err, &e) || e.ErrCode != CodeStrayStdout || !strings.Contains(e.Msg, `"noise"`) {
		t.Fatalf("err %v", err)
	}
	_, _, _, err = filterAll(t, strings.Repeat("x", maxStrayBytes+10)+"\n")
	if !errors.As(err, &e) || e.ErrCode != CodeStrayStdout {
		t.Fatalf("one long line: %v", err)
	}
}
