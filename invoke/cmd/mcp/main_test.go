package mcp

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/relavium/relavium/internal/testbin"
)

// TestMain is the one TestMain of package mcp (shared by every engineer's
// tests here): no test may leave a goroutine behind, and the programs
// testbin built are removed at the end.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(testbin.Exit))
}
