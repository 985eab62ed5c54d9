//go:build !linux

package main

import "os"

// terminalState: outside Linux a forced exit does not restore the
// terminal's mode (the TUI restores it on every orderly exit).
type terminalState struct{}

func saveTerminal(in, out *os.File, inTTY, outTTY bool) *terminalState { return &terminalState{} }

func (t *terminalState) restore() {}
