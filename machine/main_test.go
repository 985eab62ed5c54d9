package machine

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain is the one TestMain of package machine: no test may leave a
// goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
