package loadtest

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// The codes loadtest raises.
const (
	CodeBadPlan         fault.Code = "E720"
	CodeArgsFile        fault.Code = "E721"
	CodeBaseline        fault.Code = "E722"
	CodeSave            fault.Code = "E723"
	CodeThreshold       fault.Code = "E724"
	CodeBadThreshold    fault.Code = "E725"
	CodeNothingAnswered fault.Code = "E726"
)

// Codes registers loadtest's codes (the codes table in the docs says the
// same to a person; the repository's docs test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeBadPlan, Class: fault.Usage, Meaning: "mcp bench: a rate, duration, warmup, caller count or timeout out of bounds (nothing is started)"},
	{Code: CodeArgsFile, Class: fault.Usage, Meaning: "mcp bench --args-file: not a regular file, over 16 MiB or 100,000 lines, or a line that is not a JSON object (named by line)"},
	{Code: CodeBaseline, Class: fault.Usage, Meaning: "mcp bench --baseline: the file is not a regular file of at most 8 MiB holding a report --save wrote"},
	{Code: CodeSave, Class: fault.Failure, Meaning: "mcp bench --save: the report could not be written (the file is left as it was)"},
	{Code: CodeThreshold, Class: fault.Failure, Meaning: "mcp bench: a threshold failed (--max-p99, --max-error-rate or --min-rate; each failed one is named with its figure)"},
	{Code: CodeBadThreshold, Class: fault.Usage, Meaning: "mcp bench: a threshold that does not parse (a duration for --max-p99, a percentage such as 0.1% for --max-error-rate and --min-rate)"},
	{Code: CodeNothingAnswered, Class: fault.Failure, Meaning: "mcp bench: no request was answered successfully during the measured phase (the errors by code say why)"},
}
