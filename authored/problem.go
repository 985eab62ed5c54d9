package authored

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/relavium/relavium/fault"
)

// Problem is one authored mistake: its code (when the file kind gives each
// rule one), where it is, which field, and what to do.
type Problem struct {
	Code fault.Code `json:"code,omitempty"`
	Pos
	Field   string `json:"field"`
	Message string `json:"message"`
}

// String renders the problem like a compiler: file:line:col: field: message.
func (p Problem) String() string {
	var b strings.Builder
	if s := p.Pos.String(); s != "" {
		b.WriteString(s)
		b.WriteString(": ")
	}
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Problems collects every problem of a read; nothing stops at the first.
type Problems []Problem

// Add records one problem and returns it for the caller to complete.
func (ps *Problems) Add(code fault.Code, at Pos, field, format string, a ...any) *Problem {
	*ps = append(*ps, Problem{Code: code, Pos: at, Field: field, Message: fmt.Sprintf(format, a...)})
	return &(*ps)[len(*ps)-1]
}

// Sort orders problems by file, line and column, keeping the order of
// problems at one place.
func (ps Problems) Sort() {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}
