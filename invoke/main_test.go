package invoke

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain is the one TestMain of package invoke (shared by every engineer's
// tests here): no test may leave a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
