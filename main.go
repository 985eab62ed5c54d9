// Command relavium is a terminal workbench for the Model Context Protocol.
// main only wires the process to package invoke: TTY detection, the
// relavium home, signals, the interactive face (tui.Run) handed to
// invoke's session command, and the machine surface (machine.Run) handed to
// mcp serve, so that no face imports another.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/relavium/relavium/host/proc"
	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/machine"
	"github.com/relavium/relavium/sandbox"
	"github.com/relavium/relavium/tui"
)

func main() {
	os.Exit(run())
}

func run() int {
	// The hidden sandbox-exec: relavium re-executes itself between fork
	// and a stdio server's exec to confine the server (package sandbox),
	// so relavium's own process is never confined. Nothing else runs.
	if len(os.Args) > 1 && os.Args[1] == sandbox.ExecCommand {
		err := sandbox.Exec(os.Args[2:], os.Environ())
		fmt.Fprintln(os.Stderr, "relavium sandbox-exec:", err)
		return 126
	}
	// Before any MCP server is spawned: orphans of a server's process tree
	// (a setsid grandchild whose parent exited) are reparented to relavium,
	// which kills and reaps them with their server. Linux only; elsewhere
	// (or on a kernel without it) teardown reaches the process group only.
	_ = proc.BecomeSubreaper()
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "relavium: cannot read the working directory:", err)
		return cli.ExitFailure
	}
	home, err := relaviumHome()
	if err != nil {
		fmt.Fprintln(os.Stderr, "relavium:", err)
		return cli.ExitUsage
	}
	exe, _ := os.Executable()
	env := &cli.Env{
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		StdinTTY:   isTerminal(os.Stdin.Fd()),
		StdoutTTY:  isTerminal(os.Stdout.Fd()),
		StderrTTY:  isTerminal(os.Stderr.Fd()),
		LookupEnv:  os.LookupEnv,
		Environ:    os.Environ(),
		Home:       home,
		UserHome:   userHome(),
		WorkDir:    wd,
		Executable: exe,
		Version:    buildVersion(version, readBuildInfo()),
		Session:    tui.Run,
		Serve:      machine.Run,
		Now:        time.Now,
	}
	// A one-shot command tears everything down on any of these signals; the
	// TUI reads its own keys in raw mode. A second signal, or a command that
	// has not ended 2 s after the first, exits at once (signals.go).
	ctx, stop := handleSignals(saveTerminal(os.Stdin, os.Stdout, env.StdinTTY, env.StdoutTTY))
	defer stop()
	return invoke.Main(ctx, env, os.Args[1:])
}

func isTerminal(fd uintptr) bool {
	return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
}

// userHome is the person's home directory, where other clients keep their
// MCP files ("" when the system names none: those files are then not listed).
func userHome() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return h
}

// relaviumHome is $RELAVIUM_HOME, else ~/.relavium.
func relaviumHome() (string, error) {
	if h := os.Getenv("RELAVIUM_HOME"); h != "" {
		return filepath.Abs(h)
	}
	uh, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory; set RELAVIUM_HOME: %w", err)
	}
	return filepath.Join(uh, ".relavium"), nil
}
