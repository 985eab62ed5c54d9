package lint

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Error codes (E944).
const (
	CodeFindings fault.Code = "E944" // mcp lint: a finding at or above --fail-on
)

// Codes registers the error codes package lint owns.
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeFindings, Class: fault.Failure, Meaning: "mcp lint: a finding at or above `--fail-on` (not suppressed); the findings are printed"},
}

// Error is lint's failure; its data is the Report.
type Error struct{ fault.Base }
