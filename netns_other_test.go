//go:build !linux

package main

import (
	"fmt"
	"os"
)

// runNetnsStage: network namespaces are Linux's; elsewhere nothing sets
// the stage variable, and a stray one is refused.
func runNetnsStage() int {
	fmt.Fprintln(os.Stderr, "the network-namespace stage runs on Linux only")
	return 1
}
