package session

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/relavium/relavium/host/proc"
	"github.com/relavium/relavium/internal/testbin"
)

// hostileBin is the test server program (testdata/servers/hostile), built
// once by TestMain through testbin, which removes it at exit.
var hostileBin string

func TestMain(m *testing.M) {
	if err := proc.BecomeSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot become a child subreaper:", err)
		os.Exit(1)
	}
	var err error
	if hostileBin, err = testbin.Program("./testdata/servers/hostile"); err != nil {
		fmt.Fprintln(os.Stderr, "building the test server:", err)
		testbin.Exit(1)
	}
	goleak.VerifyTestMain(m, goleak.Cleanup(testbin.Exit))
}
