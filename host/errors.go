package host

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/failure"
)

// StartError is Start's failure: every server that failed, and the status
// of every server as it was when the start was abandoned. Nothing is left
// running when it is returned. Its code (E500) and exit are fault.Base's,
// set by startError; its causes are the failures (Unwrap lists them all).
type StartError struct {
	fault.Base
	Failures []*failure.Error
	Servers  []ServerStatus
}

// startError is the E500 over failures; it exits 2 when every failure is an
// authored one, else 1.
func startError(failures []*failure.Error, servers []ServerStatus) *StartError {
	exit := fault.ExitUsage
	for _, f := range failures {
		if f.ExitCode() != fault.ExitUsage {
			exit = fault.ExitFailure
		}
	}
	return &StartError{Base: fault.Base{ErrCode: failure.CodeStartFailed, Exit: exit}, Failures: failures, Servers: servers}
}

func (e *StartError) Error() string {
	parts := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		parts[i] = f.Error()
	}
	return string(e.ErrCode) + ": " + e.Message() + ": " + strings.Join(parts, "; ")
}

// Message is the human message without code or causes.
func (e *StartError) Message() string {
	return fmt.Sprintf("%d of %d MCP servers failed to start", len(e.Failures), len(e.Servers))
}

// Unwrap exposes every failure to errors.Is / errors.As.
func (e *StartError) Unwrap() []error {
	out := make([]error, len(e.Failures))
	for i, f := range e.Failures {
		out[i] = f
	}
	return out
}

// ErrorData is the status of every server (ready, failed, not started).
func (e *StartError) ErrorData() any { return map[string]any{"servers": e.Servers} }

// WriteHuman lists every failure with its stderr tail.
func (e *StartError) WriteHuman(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "relavium: %s: %s\n", e.ErrCode, e.Message())
	for _, f := range e.Failures {
		fmt.Fprintf(&b, "  ✗ %s\n", sanitize.Text(f.Error()))
		failure.WriteTail(&b, f.ExitStatus, f.StderrTail)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// IsDeadline reports whether err is a connect, discovery or call deadline
// failure.
func IsDeadline(err error) bool {
	var he *failure.Error
	return errors.As(err, &he) && (he.ErrCode == failure.CodeConnectDeadline || he.ErrCode == failure.CodeCallDeadline ||
		he.ErrCode == discovery.CodeDeadline)
}

// IsCancelled reports whether err is a cancellation (as opposed to a
// deadline or a failure).
func IsCancelled(err error) bool {
	var he *failure.Error
	return errors.As(err, &he) && he.ErrCode == failure.CodeCallCancelled
}
