package session

import (
	"github.com/relavium/relavium/host/config"
	"io"
	"time"
)

// Workbench is what the command line hands the interactive face: the
// session over the declared servers, and what the face needs of the
// invocation and the terminal. main wires the two faces through it, so
// that neither imports the other.
type Workbench struct {
	Session *Session
	// Project is the project directory (workflows are loaded from it).
	Project string
	// Agent names what was loaded: the --agent, "demo", or "" for every
	// registered server.
	Agent string
	Demo  bool
	// Warnings are the config's deprecation warnings, one line each.
	Warnings []string
	// Failed are the servers of other clients' files that could not be
	// admitted (config.Config.Failed), each with its problems: the
	// workbench shows each as a failed server beside the ones that run.
	Failed []config.FailedServer
	// ThemeFlag is --theme; ConfigTheme is the config's theme.
	ThemeFlag, ConfigTheme string
	// Getenv reads the face's environment (RELAVIUM_THEME, NO_COLOR).
	Getenv func(string) string
	Stdin  io.Reader
	Stdout io.Writer
	Now    func() time.Time
}
