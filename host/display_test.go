package host

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
)

// What a server says in an error reaches the person's terminal through
// WriteHuman: no control sequence passes.
func TestWriteHumanHasNoTerminalControls(t *testing.T) {
	f := &failure.Error{Base: fault.Base{ErrCode: failure.CodeInitializeFailed, Msg: "initialize failed", Cause: errors.New("server said \x1b]0;pwned\x07\x1b[2J")}, Server: "s", StderrTail: "x\x1b[31my", ExitStatus: "exit status 1"}
	for _, w := range []interface{ WriteHuman(io.Writer) error }{f, startError([]*failure.Error{f}, nil)} {
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
