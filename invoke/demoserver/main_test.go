package demoserver_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/relavium/relavium/internal/testbin"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(testbin.Exit))
}
