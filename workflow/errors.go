package workflow

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/authored"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
)

// ProblemsError carries every problem found, all at once (exit 2). It is the
// error of workflow loading (E600) and of input validation (E603). Its
// code, summary (Msg) and exit are fault.Base's, set by problemsError; Base's
// Data, when it is a map, is carried in the envelope beside the problems.
type ProblemsError struct {
	fault.Base
	Problems []authored.Problem
}

func problemsError(code fault.Code, summary string, ps []authored.Problem) *ProblemsError {
	return &ProblemsError{Base: fault.Base{ErrCode: code, Msg: summary, Exit: fault.ExitUsage}, Problems: ps}
}

func (e *ProblemsError) Error() string {
	if len(e.Problems) == 1 {
		return string(e.ErrCode) + ": " + e.Problems[0].String()
	}
	return fmt.Sprintf("%s: %s (%d problems; first: %s)", e.ErrCode, e.Msg, len(e.Problems), e.Problems[0].String())
}

// Message is the message without code.
func (e *ProblemsError) Message() string {
	if len(e.Problems) == 1 {
		return e.Msg + ": " + e.Problems[0].String()
	}
	return fmt.Sprintf("%s: %d problems", e.Msg, len(e.Problems))
}

// ErrorData lists every problem.
func (e *ProblemsError) ErrorData() any {
	d := map[string]any{"problems": e.Problems}
	if m, ok := e.Data.(map[string]any); ok {
		for k, v := range m {
			d[k] = v
		}
	}
	return d
}

// WriteHuman prints one compiler-style line per problem.
func (e *ProblemsError) WriteHuman(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "relavium: %s: %s\n", e.ErrCode, e.Msg)
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "  %s\n", p.String())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// IsCancellation reports whether err ended a run as a cancellation (the
// context was cancelled, or a person refused a gate) rather than a failure.
func IsCancellation(err error) bool {
	var e *engine.Error
	if errors.As(err, &e) {
		return e.ErrCode == engine.CodeRunCancelled || e.ErrCode == CodeGateRefused
	}
	return false
}
