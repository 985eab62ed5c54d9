package wire

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/relavium/relavium/fault"
)

// Error codes (E946–E948).
const (
	CodeBadRecording fault.Code = "E946" // a recording that does not read: not NDJSON Records, or over its bound
	CodeRecordWrite  fault.Code = "E947" // the recording file could not be written
	CodeRecordPath   fault.Code = "E948" // --record names a directory or a file in a missing directory, or differs from --trace
)

// Codes registers the error codes package wire owns.
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeBadRecording, Class: fault.Usage, Meaning: "a recording that does not read: not NDJSON records of `--record`, or over 64 MiB"},
	{Code: CodeRecordWrite, Class: fault.Failure, Meaning: "the `--record` file could not be written (nothing half-written is left)"},
	{Code: CodeRecordPath, Class: fault.Usage, Meaning: "`--record` (`--trace`) names a directory or a file in a missing directory, is empty, or differs from the other name given"},
}

// Error is a recording failure.
type Error struct{ fault.Base }

// PathError is a --record misuse.
func PathError(msg string) error {
	return &Error{Base: fault.Base{ErrCode: CodeRecordPath, Msg: msg, Exit: codes.Exit(CodeRecordPath)}}
}

// CheckPath refuses a recording path that names a directory or a file
// whose directory does not exist, before anything connects.
func CheckPath(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return PathError("--record names a directory: " + path)
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return PathError("--record names a file in a directory that does not exist: " + path)
	}
	return nil
}

// RecordingError is a recording that does not read (E946).
func RecordingError(path string, cause error) fault.Base {
	return fault.Base{ErrCode: CodeBadRecording, Msg: "cannot read the recording " + path, Cause: cause, Exit: codes.Exit(CodeBadRecording)}
}
