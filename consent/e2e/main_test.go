package e2e

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/relavium/relavium/internal/testbin"
)

// binary is the relavium binary built once for the package through
// testbin (set by TestMain before any test runs; read-only afterwards).
var binary string

func TestMain(m *testing.M) {
	var err error
	if binary, err = testbin.Program("."); err != nil {
		fmt.Fprintln(os.Stderr, "building relavium:", err)
		testbin.Exit(1)
	}
	goleak.VerifyTestMain(m, goleak.Cleanup(testbin.Exit))
}
