package proc

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/relavium/relavium/internal/testbin"
)

// hostileBin is the test server program (testdata/servers/hostile), built
// once by TestMain through testbin, which removes it at exit.
var hostileBin string

func TestMain(m *testing.M) {
	var err error
	if hostileBin, err = testbin.Program("./testdata/servers/hostile"); err != nil {
		fmt.Fprintln(os.Stderr, "building the test server:", err)
		testbin.Exit(1)
	}
	goleak.VerifyTestMain(m, goleak.Cleanup(testbin.Exit))
}
