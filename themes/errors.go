package themes

import "fmt"

// CodeUnknownTheme is the error code of a theme name that is not built in.
// It belongs to the tui/themes range (E700–E719).
const CodeUnknownTheme = "E700"

// Error is a theme choice that cannot be honoured: an authored or usage
// mistake, so it exits 2 before anything is spawned.
type Error struct {
	Name   string // the name as given
	Source string // where it came from: --theme, RELAVIUM_THEME, config
}

func (e *Error) Error() string { return CodeUnknownTheme + ": " + e.Message() }

// Code is E700.
func (e *Error) Code() string { return CodeUnknownTheme }

// ExitCode is 2: the person named a theme that does not exist.
func (e *Error) ExitCode() int { return 2 }

// Message names the bad value, its source and the valid names.
func (e *Error) Message() string {
	return fmt.Sprintf("unknown theme %q from %s: use one of %s", e.Name, e.Source, joinNames())
}
