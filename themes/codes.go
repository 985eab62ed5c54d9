package themes

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package themes owns: each code's exit class
// and what it means (the README's error-code table says the same to a
// person; the repository's README test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeUnknownTheme, Class: fault.Usage, Meaning: "unknown theme name (--theme, RELAVIUM_THEME or config)"},
}
