package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/relavium/relavium/host/proc"
)

// signalGrace is how long a command has to end by itself once the first
// signal cancelled its context. It outlasts every orderly shutdown a
// command performs on cancellation (a stdio server's stdin EOF, SIGTERM and
// SIGKILL a second later; demo-server's 2 s for open HTTP streams), so a
// first signal ends in order and only a phase that ignores its
// cancellation is cut; a second signal never waits.
const signalGrace = 5 * time.Second

// exitSignals end a one-shot command (the TUI reads Ctrl-C as a key in
// raw mode, but a SIGTERM reaches it too).
func exitSignals() []os.Signal {
	return []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}
}

// handleSignals returns a context the first signal cancels: the command
// then tears its servers down through host.Close and returns as it would
// on any cancellation. A second signal, or the command still running
// signalGrace after the first, ends the process at once: every child and
// its process group is SIGKILLed, the terminal is put back, and the exit
// code is the conventional 128+signal (130 for SIGINT, 143 for SIGTERM).
// stop releases the signals; call it when the command has returned.
func handleSignals(term *terminalState) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, exitSignals()...)
	done := make(chan struct{})
	go watchSignals(sigs, done, cancel, signalGrace, func(s os.Signal) { forceExit(s, term) })
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// watchSignals cancels on the first signal from sigs; a second one, or
// grace passing first, calls force with it (or with the first). It
// returns when done is closed.
func watchSignals(sigs <-chan os.Signal, done <-chan struct{}, cancel context.CancelFunc, grace time.Duration, force func(os.Signal)) {
	var first os.Signal
	select {
	case first = <-sigs:
	case <-done:
		return
	}
	cancel()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case s := <-sigs:
		force(s)
	case <-t.C:
		force(first)
	case <-done:
	}
}

// forceExit ends the process now, leaving no server behind.
func forceExit(s os.Signal, term *terminalState) {
	proc.KillChildren()
	term.restore()
	fmt.Fprintf(os.Stderr, "relavium: %s: stopped without waiting for the command to finish\n", s)
	os.Exit(exitCodeOf(s))
}

// exitCodeOf is the shell's code for a process ended by s.
func exitCodeOf(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}
