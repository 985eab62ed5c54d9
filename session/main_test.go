package session

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/relavium/relavium/host"
)

// hostileBin is the test server program (testdata/servers/hostile), built
// once by TestMain into a temporary directory removed at exit.
var hostileBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "relavium-session-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := host.BecomeSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot become a child subreaper:", err)
		os.Exit(1)
	}
	hostileBin = filepath.Join(dir, "hostile")
	build := exec.Command("go", "build", "-o", hostileBin, "./testdata/servers/hostile")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the test server: %v\n%s", err, out)
		os.Exit(1)
	}
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		_ = os.RemoveAll(dir)
		os.Exit(code)
	}))
}
