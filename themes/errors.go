package themes

import "github.com/relavium/relavium/fault"

// CodeUnknownTheme is the error code of a theme name that is not built in.
// It belongs to the tui/themes range (E700–E719). An authored or usage
// mistake: it exits 2 before anything is spawned.
const CodeUnknownTheme fault.Code = "E700"

// Error is the repository's coded error (package fault).
type Error = fault.Error

// unknownTheme names the bad value, where it came from (--theme,
// RELAVIUM_THEME, config) and the valid names.
func unknownTheme(name, source string) *Error {
	return codes.New(CodeUnknownTheme, "unknown theme %q from %s: use one of %s", name, source, joinNames())
}
