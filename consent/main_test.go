package consent

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"go.uber.org/goleak"
	"golang.org/x/sys/unix"
)

// appenderEnv switches the test binary into the appender child used by
// TestConcurrentAppendersLoseNothing: it appends N grants to a store from a
// separate process, then exits.
const appenderEnv = "RELAVIUM_CONSENT_TEST_APPENDER"

func TestMain(m *testing.M) {
	if os.Getenv(appenderEnv) != "" {
		os.Exit(runAppender())
	}
	goleak.VerifyTestMain(m)
}

// runAppender reads home, worker id and count from the environment and
// appends count grants (each a distinct digest) to the store under home.
func runAppender() int {
	home := os.Getenv("APPENDER_HOME")
	id, err1 := strconv.Atoi(os.Getenv("APPENDER_ID"))
	n, err2 := strconv.Atoi(os.Getenv("APPENDER_N"))
	if home == "" || err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "appender: bad environment")
		return 3
	}
	if limit := os.Getenv("APPENDER_FSIZE"); limit != "" {
		// Cap the file size this process may write, as a full disk would:
		// write(2) then stores part of a line and fails (EFBIG; Go ignores
		// SIGXFSZ).
		b, err := strconv.ParseUint(limit, 10, 64)
		var rl unix.Rlimit
		if err == nil {
			err = unix.Getrlimit(unix.RLIMIT_FSIZE, &rl)
		}
		if err == nil {
			rl.Cur = b
			err = unix.Setrlimit(unix.RLIMIT_FSIZE, &rl)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "appender: cannot limit the file size:", err)
			return 3
		}
	}
	s := Open(home)
	for i := 0; i < n; i++ {
		r := fakeResolved(fmt.Sprintf("w%d-%d", id, i))
		if err := s.Grant(r, time.Unix(1_700_000_000, int64(i))); err != nil {
			fmt.Fprintln(os.Stderr, "appender:", err)
			return 1
		}
	}
	return 0
}
