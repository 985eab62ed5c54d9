package cli

import (
	"context"
	"io"
	"time"

	"github.com/relavium/relavium/redact"

	"github.com/spf13/pflag"

	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/wire"
	"github.com/relavium/relavium/session"
)

// SessionFunc runs the interactive session (the TUI) over the workbench
// invoke loaded. main injects it so that invoke never imports tui, nor tui
// invoke.
type SessionFunc func(ctx context.Context, wb session.Workbench) error

// Env is everything a command may touch of its surroundings. Nothing in
// relavium reads os.Getenv, os.Stdout or the home directory directly: tests
// build an Env with a temp home.
type Env struct {
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer
	StdinTTY  bool
	StdoutTTY bool
	// StderrTTY: stderr is a terminal (a live progress line may be drawn
	// there, never on a pipe).
	StderrTTY bool
	LookupEnv func(string) (string, bool)
	Environ   []string
	// Home is the relavium home ($RELAVIUM_HOME, else ~/.relavium).
	Home string
	// UserHome is the person's home directory, where other clients keep
	// their MCP files (`config sources`); "" lists none of them.
	UserHome string
	// redact is the invocation's one redactor and rawStdout the stdout
	// under it (redact.go); set by Main.
	redact    *redact.Set
	rawStdout io.Writer
	// WorkDir is the process working directory.
	WorkDir string
	// Executable is the running binary (os.Executable), used to run children
	// of the same binary and the embedded demo server.
	Executable string
	Version    string
	Session    SessionFunc
	// Serve is the machine surface behind `mcp serve`, injected by main.
	Serve ServeFunc
	Now   func() time.Time
}

// Getenv returns the value of an environment variable, or "".
func (e *Env) Getenv(name string) string {
	if e.LookupEnv == nil {
		return ""
	}
	v, _ := e.LookupEnv(name)
	return v
}

// Globals are the root flags, accepted before or after the command path.
type Globals struct {
	Project string `json:"project"` // absolute project directory
	Agent   string `json:"agent,omitempty"`
	// Config are --config client files (absolute), read instead of the
	// relavium config files.
	Config     []string `json:"config,omitempty"`
	JSON       bool     `json:"json"`
	AllowStdio []string `json:"allow_mcp_stdio,omitempty"`
	// AllowSecret are --allow-secret NAME@ORIGIN secret bindings.
	AllowSecret []string `json:"allow_secret,omitempty"`
	// AllowLocal are --allow-local NAME: servers of another client's file
	// whose loopback or private address the person approves.
	AllowLocal []string `json:"allow_local,omitempty"`
	Theme      string   `json:"theme,omitempty"`
	// Record is --record (or its other name --trace): the recording file,
	// absolute.
	Record string `json:"record,omitempty"`
}

// Invocation is one parsed command line, handed to a Handler.
type Invocation struct {
	// Table is the command table the line was parsed against.
	Table  *Table
	Cmd    *Command
	Args   []string
	Global Globals
	Env    *Env
	flags  *pflag.FlagSet
	// wire records the servers' traffic when --record is given (wire.go).
	Wire *wire.Hub
	// machine: run by mcp serve for an MCP client (child.go), not typed by
	// a person.
	machine bool
}

// TypedStdio reports whether this invocation's --stdio COMMAND was typed
// by the person on the command line (not sent by a machine client through
// mcp serve): their own command, as if typed in a shell.
func (inv *Invocation) TypedStdio() bool {
	return !inv.machine && inv.flags != nil && inv.Changed("stdio")
}

// LoadConfig reads the servers this invocation declares: the relavium
// config files and what they import, or the --config client files instead.
func (inv *Invocation) LoadConfig() (*config.Config, error) {
	return config.LoadFrom(inv.Env.Home, inv.Global.Project, inv.Sources())
}

func (inv *Invocation) Sources() config.Sources {
	return config.Sources{Files: inv.Global.Config, LookupEnv: inv.Env.LookupEnv}
}

// CanPrompt reports whether anyone can be asked (see CanPrompt).
func (inv *Invocation) CanPrompt() bool {
	return CanPrompt(inv.Env.StdinTTY, inv.Env.StdoutTTY, inv.Global.JSON, inv.Env.LookupEnv)
}

// Changed reports whether the flag was set on the command line.
func (inv *Invocation) Changed(name string) bool {
	f := inv.flags.Lookup(name)
	return f != nil && f.Changed
}

// Bool returns a bool flag's value.
func (inv *Invocation) Bool(name string) bool {
	v, _ := inv.flags.GetBool(name)
	return v
}

// String returns a string flag's value.
func (inv *Invocation) String(name string) string {
	v, _ := inv.flags.GetString(name)
	return v
}

// Int returns an int flag's value.
func (inv *Invocation) Int(name string) int {
	v, _ := inv.flags.GetInt(name)
	return v
}

// Duration returns a duration flag's value.
func (inv *Invocation) Duration(name string) time.Duration {
	v, _ := inv.flags.GetDuration(name)
	return v
}

// Strings returns a stringSlice or stringArray flag's values.
func (inv *Invocation) Strings(name string) []string {
	if v, err := inv.flags.GetStringArray(name); err == nil {
		return v
	}
	v, _ := inv.flags.GetStringSlice(name)
	return v
}

// Human returns where human text goes: stdout normally, stderr under --json
// (stdout then carries exactly one JSON document).
func (inv *Invocation) Human() io.Writer {
	if inv.Global.JSON {
		return inv.Env.Stderr
	}
	return inv.Env.Stdout
}
