package canonjson

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package canonjson owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeNotCanonical, Class: fault.Usage, Meaning: "a value with no faithful canonical JSON form"},
}
