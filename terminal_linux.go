package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminalState is the terminal's mode when relavium started, so an exit
// that cannot let the TUI clean up still leaves a usable terminal.
type terminalState struct {
	in, out *os.File
	saved   *unix.Termios
	outTTY  bool
}

func saveTerminal(in, out *os.File, inTTY, outTTY bool) *terminalState {
	t := &terminalState{in: in, out: out, outTTY: outTTY}
	if inTTY {
		if st, err := unix.IoctlGetTermios(int(in.Fd()), unix.TCGETS); err == nil {
			t.saved = st
		}
	}
	return t
}

// leaveScreen ends what the TUI may have turned on: the alternate screen,
// mouse reporting, bracketed paste, a hidden cursor and colours.
const leaveScreen = "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?1049l\x1b[?25h\x1b[0m"

func (t *terminalState) restore() {
	if t == nil {
		return
	}
	if t.saved != nil {
		_ = unix.IoctlSetTermios(int(t.in.Fd()), unix.TCSETS, t.saved)
	}
	if t.outTTY {
		_, _ = t.out.WriteString(leaveScreen)
	}
}
