package loadtest

import (
	"testing"

	"go.uber.org/goleak"
)

// No run leaves a goroutine behind: the schedule, the requests in flight
// and the progress line all end with Run.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
