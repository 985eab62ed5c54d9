package cli

import (
	"io"

	"github.com/relavium/relavium/redact"
)

// The command line's exits — stdout (human output, the --json envelope)
// and stderr (errors, warnings, --events, prompts) — are the one place its
// text leaves relavium, so the session's one redactor (package redact) is
// applied there: every secret value the invocation's session injects or
// holds (env secrets, header values, OAuth tokens, typed inputs) is
// replaced in whatever is written, serverInfo, instructions, logs,
// progress, structured content and errors included. Sources redact too
// (host); this is the net no text passes.

// redacting is env with its stdout and stderr passed through a fresh
// redactor, which the invocation's session is built with (sessionOptions);
// the unredacted stdout is kept for the workbench, which draws on the
// terminal itself and redacts every frame.
func (e *Env) redacting() *Env {
	if e.redact != nil {
		return e
	}
	c := *e
	c.redact = redact.New()
	c.rawStdout = e.Stdout
	c.Stdout, c.Stderr = c.redact.Writer(e.Stdout), c.redact.Writer(e.Stderr)
	return &c
}

// TerminalOut is the stdout a full-screen face draws on (the workbench):
// the terminal itself, not the redacting writer.
func (e *Env) TerminalOut() io.Writer {
	if e.rawStdout != nil {
		return e.rawStdout
	}
	return e.Stdout
}
