package consent

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain is the one TestMain of package consent: no test may leave a
// goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
