package main

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

// runWatch starts watchSignals with a fake force and returns what it
// forced (nil when it did not).
func runWatch(t *testing.T, grace time.Duration, steps func(sigs chan os.Signal, ctx context.Context, done chan struct{})) os.Signal {
	t.Helper()
	sigs := make(chan os.Signal, 2)
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	forced := make(chan os.Signal, 1)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		watchSignals(sigs, done, cancel, grace, func(s os.Signal) { forced <- s })
	}()
	steps(sigs, ctx, done)
	<-finished
	select {
	case s := <-forced:
		return s
	default:
		return nil
	}
}

func TestFirstSignalCancelsAndACommandThatEndsIsNotForced(t *testing.T) {
	got := runWatch(t, time.Hour, func(sigs chan os.Signal, ctx context.Context, done chan struct{}) {
		sigs <- syscall.SIGTERM
		<-ctx.Done() // the command sees the cancellation
		close(done)  // and returns
	})
	if got != nil {
		t.Fatalf("forced %v after the command returned", got)
	}
}

func TestSecondSignalForcesAtOnce(t *testing.T) {
	got := runWatch(t, time.Hour, func(sigs chan os.Signal, ctx context.Context, done chan struct{}) {
		sigs <- syscall.SIGTERM
		<-ctx.Done()
		sigs <- syscall.SIGINT // long before the hour of grace
	})
	if got != syscall.SIGINT {
		t.Fatalf("forced %v, want the second signal", got)
	}
}

// A command that ignores its cancelled context is ended after the grace,
// with the first signal's code.
func TestGraceRunsOutForACommandThatDoesNotEnd(t *testing.T) {
	got := runWatch(t, 10*time.Millisecond, func(sigs chan os.Signal, ctx context.Context, done chan struct{}) {
		sigs <- syscall.SIGTERM
		<-ctx.Done()
		// never returns: done stays open
	})
	if got != syscall.SIGTERM {
		t.Fatalf("forced %v, want SIGTERM", got)
	}
}

func TestNoSignalNoCancel(t *testing.T) {
	got := runWatch(t, time.Millisecond, func(sigs chan os.Signal, ctx context.Context, done chan struct{}) {
		close(done)
	})
	if got != nil {
		t.Fatalf("forced %v with no signal", got)
	}
}

func TestExitCodeOfSignal(t *testing.T) {
	for sig, want := range map[os.Signal]int{os.Interrupt: 130, syscall.SIGTERM: 143, syscall.SIGHUP: 129, syscall.SIGQUIT: 131} {
		if got := exitCodeOf(sig); got != want {
			t.Errorf("%v: %d, want %d", sig, got, want)
		}
	}
}
