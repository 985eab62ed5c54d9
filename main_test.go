package main

import (
	"os"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

// netnsStageEnv, when set, makes the test process the network-namespace
// stage of netns_e2e_test.go instead of a test run.
const netnsStageEnv = "RELAVIUM_NETNS_STAGE"

// TestMain is the root package's one TestMain: the stage re-enters here;
// a test run removes the programs testbin built once it is done.
func TestMain(m *testing.M) {
	if os.Getenv(netnsStageEnv) != "" {
		os.Exit(runNetnsStage())
	}
	os.Exit(testbin.Run(m))
}
