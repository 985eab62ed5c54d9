package stream

import "github.com/relavium/relavium/fault"

// Error codes owned by package stream (in host's range, E518–E519). They
// are stable: docs/error-codes.md documents them and scripts match on them.
const (
	CodeMessageDepth fault.Code = "E518" // a stdio server's message nests arrays and objects deeper than 512 levels
	CodeStrayStdout  fault.Code = "E519" // a stdio server wrote more non-JSON lines on stdout than are skipped
)

// Codes registers the error codes package stream owns: each code's exit
// class and what it means (docs/error-codes.md says the same to a person;
// the repository's codes test holds the two together).
func Codes() fault.Table { return codes }

var codes = fault.Table{
	{Code: CodeMessageDepth, Class: fault.Failure, Meaning: "a stdio server's message nests arrays and objects deeper than 512 levels (refused before decoding; the server is failed)"},
	{Code: CodeStrayStdout, Class: fault.Failure, Meaning: "a stdio server wrote more than 1000 lines or 1 MiB of non-JSON output on stdout (each such line is skipped with a warning until then; the server is failed)"},
}
