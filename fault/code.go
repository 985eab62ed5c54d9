package fault

import "slices"

// Code is a stable error code: "E" and three digits. A code never changes
// meaning; scripts match on it.
type Code string

// Process exit codes. Every relavium command exits with one of these (or
// 128+signal when a second signal ends it at once).
const (
	ExitOK      = 0
	ExitFailure = 1 // a runtime failure: a server, the network, a store
	ExitUsage   = 2 // an authored or usage mistake: flags, config, arguments
)

// Class is how an error with a given code ends the process.
type Class uint8

const (
	// Failure exits 1: something failed at run time.
	Failure Class = iota
	// Usage exits 2: the person or an author asked for something wrong.
	Usage
	// Varies: the raising site chooses (a network-guard refusal is an
	// authored mistake when a config is checked, a runtime failure when met
	// while connecting). An error of such a code carries its Exit.
	Varies
)

// Exit is the process exit code of the class (Varies defaults to 1).
func (c Class) Exit() int {
	if c == Usage {
		return ExitUsage
	}
	return ExitFailure
}

func (c Class) String() string {
	switch c {
	case Usage:
		return "usage"
	case Varies:
		return "varies"
	}
	return "failure"
}

// Def registers one code: its number, its exit class and what it means.
type Def struct {
	Code    Code
	Class   Class
	Meaning string
}

// Table is the registration of the codes one package owns.
type Table []Def

// Lookup returns the registration of c.
func (t Table) Lookup(c Code) (Def, bool) {
	i := slices.IndexFunc(t, func(d Def) bool { return d.Code == c })
	if i < 0 {
		return Def{}, false
	}
	return t[i], true
}

// Exit is the exit code of c's class; a code the table does not hold (a
// caller bug the package's tests catch) exits 1.
func (t Table) Exit(c Code) int {
	d, _ := t.Lookup(c)
	return d.Class.Exit()
}

// New builds an error of code c whose exit code is c's class.
func (t Table) New(c Code, format string, a ...any) *Error {
	return &Error{ErrCode: c, Msg: sprintf(format, a), Exit: t.Exit(c)}
}

// Wrap is New with a cause.
func (t Table) Wrap(c Code, cause error, format string, a ...any) *Error {
	e := t.New(c, format, a...)
	e.Cause = cause
	return e
}
