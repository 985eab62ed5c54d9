package secrets

import "github.com/relavium/relavium/fault"

// Error codes owned by package secrets (in host's range, E521–E522). They
// are stable: docs/error-codes.md documents them and scripts match on them.
const (
	CodeSecretFileUnsafe fault.Code = "E521" // the secrets file is group/other-accessible, a symlink or not a file
	CodeSecretFileBad    fault.Code = "E522" // the secrets file does not parse
)

// Codes registers the error codes package secrets owns: each code's exit
// class and what it means (docs/error-codes.md says the same to a person;
// the repository's codes test holds the two together).
func Codes() fault.Table { return codes }

var codes = fault.Table{
	{Code: CodeSecretFileUnsafe, Class: fault.Usage, Meaning: "the secrets file is group/other-accessible, a symlink or not a file"},
	{Code: CodeSecretFileBad, Class: fault.Usage, Meaning: "the secrets file does not parse"},
}
