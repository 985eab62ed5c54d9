package themes

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package themes owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeUnknownTheme, Class: fault.Usage, Meaning: "unknown theme name (--theme, RELAVIUM_THEME or config)"},
}
