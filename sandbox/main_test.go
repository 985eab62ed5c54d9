package sandbox

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain is also this test binary's sandbox-exec, as relavium's main is
// relavium's: the tests confine real processes through it.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == ExecCommand {
		err := Exec(os.Args[2:], os.Environ())
		fmt.Fprintln(os.Stderr, "relavium sandbox-exec:", err)
		os.Exit(126)
	}
	goleak.VerifyTestMain(m)
}
