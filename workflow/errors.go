package workflow

import (
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/authored"
	"github.com/relavium/relavium/fault"
)

// ProblemsError carries every problem found, all at once (exit 2). It is the
// error of workflow loading (E600) and of input validation (E603).
type ProblemsError struct {
	ErrCode  fault.Code
	Summary  string
	Problems []authored.Problem
	// Data, when set, is carried in the envelope beside the problems (for
	// example the workflows that did load).
	Data map[string]any
}

func (e *ProblemsError) Error() string {
	if len(e.Problems) == 1 {
		return string(e.ErrCode) + ": " + e.Problems[0].String()
	}
	return fmt.Sprintf("%s: %s (%d problems; first: %s)", e.ErrCode, e.Summary, len(e.Problems), e.Problems[0].String())
}

// Code returns the stable code.
func (e *ProblemsError) Code() fault.Code { return e.ErrCode }

// Message is the message without code.
func (e *ProblemsError) Message() string {
	if len(e.Problems) == 1 {
		return e.Summary + ": " + e.Problems[0].String()
	}
	return fmt.Sprintf("%s: %d problems", e.Summary, len(e.Problems))
}

// ExitCode is 2: an authored or usage mistake.
func (e *ProblemsError) ExitCode() int { return fault.ExitUsage }

// ErrorData lists every problem.
func (e *ProblemsError) ErrorData() any {
	d := map[string]any{"problems": e.Problems}
	for k, v := range e.Data {
		d[k] = v
	}
	return d
}

// WriteHuman prints one compiler-style line per problem.
func (e *ProblemsError) WriteHuman(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "relavium: %s: %s\n", e.ErrCode, e.Summary)
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "  %s\n", p.String())
	}
	_, err := io.WriteString(w, b.String())
	return err
}
