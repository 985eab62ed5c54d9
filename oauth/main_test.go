package oauth

import (
	"testing"

	"go.uber.org/goleak"
)

// No goroutine of a sign-in (the callback listener, the guard's
// connections) outlives it.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
