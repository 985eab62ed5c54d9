package cli

import (
	"context"
	"strings"
)

// SideEffect classifies what a command can change.
type SideEffect string

// Side effects, weakest first.
const (
	Read        SideEffect = "read"
	Write       SideEffect = "write"
	Remote      SideEffect = "remote"
	Destructive SideEffect = "destructive"
)

// Rank orders side effects so an escalation can only raise one.
func (s SideEffect) Rank() int {
	switch s {
	case Read:
		return 0
	case Write:
		return 1
	case Remote:
		return 2
	case Destructive:
		return 3
	}
	return 3 // unknown: treat as the strongest
}

// Known reports whether s is one of the four side effects.
func (s SideEffect) Known() bool {
	return s == Read || s == Write || s == Remote || s == Destructive
}

// Output is a command's output kind.
type Output string

// Output kinds.
const (
	Document Output = "document" // one envelope
	Stream   Output = "stream"   // NDJSON events
)

// Surface says who may run a command.
type Surface string

// Surfaces.
const (
	Machine Surface = "machine"  // terminal and machine surface
	CLIOnly Surface = "cli-only" // terminal only
)

// FlagType is the value type of a flag.
type FlagType string

// Flag types.
const (
	Bool        FlagType = "bool"
	String      FlagType = "string"
	Int         FlagType = "int"
	Duration    FlagType = "duration"
	StringSlice FlagType = "stringSlice" // one flag per item; comma-split
	StringArray FlagType = "stringArray" // one flag per item; never split
)

// Flag describes one flag of a command.
type Flag struct {
	Name    string
	Short   string
	Type    FlagType
	Default string // textual default, as pflag would print it
	Usage   string
	Enum    []string // allowed values, when closed
	Secret  bool     // value never logged, hashed or echoed
	CLIOnly bool     // never exposed on the machine surface
	Hidden  bool
	// Deprecated flags are accepted on the terminal, never on the machine surface.
	Deprecated bool
	// Escalates raises the command's side effect when the flag is set.
	Escalates SideEffect
	// OutputOverride switches the output kind when the flag is set.
	OutputOverride Output
}

// Arg describes one positional argument.
type Arg struct {
	Name     string
	Usage    string
	Required bool
	Variadic bool // takes every remaining positional
	Secret   bool
	// Enum are the allowed values, when closed (shell completion offers them).
	Enum []string
}

// Confirm is a command's confirm block: the flags that carry consent and,
// optionally, a plan form.
type Confirm struct {
	Consent  []string // e.g. ["yes"]
	PlanFlag string   // e.g. "plan"
	IDFlag   string   // e.g. "plan-id"
}

// Handler runs a command and returns the data of its envelope.
type Handler func(ctx context.Context, inv *Invocation) (any, error)

// Command is one row of the command table.
type Command struct {
	Path       []string
	Summary    string
	Args       []Arg
	Flags      []Flag
	SideEffect SideEffect
	JSON       bool // supports the --json envelope
	Output     Output
	Surface    Surface
	Confirm    *Confirm
	Hidden     bool
	Deprecated bool
	// Argv marks a leaf that takes free-form words instead of declared args
	// and flags (a plugin-style leaf). No built-in command sets it; the
	// machine surface offers `argv` only where it is set (machine/expose.go).
	Argv bool
	// SideEffectFor, when set, decides the side effect of one invocation from
	// what its args name (`run WORKFLOW` takes the workflow's declared side
	// effect, read included); SideEffect is then only the value for a request
	// that names nothing. An error means the request is treated as
	// destructive.
	SideEffectFor func(projectDir string, args []string) (SideEffect, error)
	Run           Handler // nil for a group (a path with subcommands)
}

// Name is the space-joined path.
func (c *Command) Name() string { return strings.Join(c.Path, " ") }

// Flag returns the named flag, or nil.
func (c *Command) Flag(name string) *Flag {
	for i := range c.Flags {
		if c.Flags[i].Name == name {
			return &c.Flags[i]
		}
	}
	return nil
}

// Table is the command table: every command, with lookup helpers.
type Table struct {
	Commands []*Command
	Globals  []Flag
}

// Lookup returns the command at exactly path, or nil.
func (t *Table) Lookup(path []string) *Command {
	for _, c := range t.Commands {
		if equalPath(c.Path, path) {
			return c
		}
	}
	return nil
}

// Children returns the commands one level below path.
func (t *Table) Children(path []string) []*Command {
	var out []*Command
	for _, c := range t.Commands {
		if len(c.Path) == len(path)+1 && equalPath(c.Path[:len(path)], path) {
			out = append(out, c)
		}
	}
	return out
}

// isPrefix reports whether path is a prefix of some command's path.
func (t *Table) isPrefix(path []string) bool {
	for _, c := range t.Commands {
		if len(c.Path) >= len(path) && equalPath(c.Path[:len(path)], path) {
			return true
		}
	}
	return false
}

func equalPath(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
