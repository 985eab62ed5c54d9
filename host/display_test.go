package host

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
)

// A stdio server's stderr is shown to a person (mcp ls, the TUI, failures):
// its terminal control sequences are removed, never replayed.
func TestStderrTailHasNoTerminalControls(t *testing.T) {
	r := &stderrRing{}
	_, _ = r.Write([]byte("evil \x1b]0;pwned\x07 \x1b[2J\x1b[31mred\x9b1m\u202eabc\rover\n"))
	tail := r.Tail(nil)
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\r", "\u009b"} {
		if strings.Contains(tail, bad) {
			t.Errorf("tail %q holds %q", tail, bad)
		}
	}
	if !strings.Contains(tail, "evil") || !strings.Contains(tail, "red") {
		t.Errorf("tail lost its text: %q", tail)
	}
}

// What a server says in an error reaches the person's terminal through
// WriteHuman: no control sequence passes.
func TestWriteHumanHasNoTerminalControls(t *testing.T) {
	f := &Error{Base: fault.Base{ErrCode: CodeInitializeFailed, Msg: "initialize failed", Cause: errors.New("server said \x1b]0;pwned\x07\x1b[2J")}, Server: "s", StderrTail: "x\x1b[31my", ExitStatus: "exit status 1"}
	for _, w := range []interface{ WriteHuman(io.Writer) error }{f, startError([]*Error{f}, nil)} {
		var b bytes.Buffer
		if err := w.WriteHuman(&b); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(b.String(), "\x1b\x07") {
			t.Errorf("WriteHuman printed a control sequence: %q", b.String())
		}
		if !strings.Contains(b.String(), "server said") {
			t.Errorf("WriteHuman lost the cause: %q", b.String())
		}
	}
}
