package consent

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/fault"
)

// Require is the headless policy. When someone can be asked (canPrompt) it
// returns nil and the caller asks. Otherwise, if any server needs consent, it
// returns a *PendingError (E301, exit 2) listing each; nil when every server
// is approved or denied.
func Require(decisions []Decision, canPrompt bool) error {
	if canPrompt {
		return nil
	}
	pe := &PendingError{Base: fault.Base{ErrCode: CodeConsentRequired, Exit: fault.ExitUsage}}
	for _, d := range decisions {
		if d.State != NeedsConsent {
			continue
		}
		pe.Pending = append(pe.Pending, d)
		if pe.Cause == nil {
			pe.Cause = d.StoreErr
		}
	}
	if len(pe.Pending) == 0 {
		return nil
	}
	return pe
}

// PendingError is consent that no one was there to give: no TTY, --json, or
// CI. It names each unapproved server with its resolved command line, digest
// and diff, and the exact --allow-mcp-stdio flag that approves it. Its code
// (E301) and exit (2: consent no one could give) are fault.Base's; its Cause
// is the store problem, if any, that made remembered grants untrusted.
type PendingError struct {
	fault.Base
	Pending []Decision
	// Undeclared: no pending server is declared in a config or agent file
	// (the demo, an ad-hoc --stdio server), so `consent grant` cannot
	// remember it; only --allow-mcp-stdio approves it.
	Undeclared bool
}

func (e *PendingError) Error() string { return string(e.ErrCode) + ": " + e.Message() }

// Message is the one-line summary.
func (e *PendingError) Message() string {
	names := make([]string, len(e.Pending))
	for i, d := range e.Pending {
		names[i] = quoteArg(d.Server.Name)
	}
	return fmt.Sprintf("consent required for %d stdio server(s) (%s) and no one can be asked here (no TTY, --json or CI); review each and pass --allow-mcp-stdio DIGEST",
		len(e.Pending), strings.Join(names, ", "))
}

// PendingServer is one entry of the envelope's pending[] list.
type PendingServer struct {
	Server      string     `json:"server"`
	CommandLine string     `json:"command_line"`
	Command     string     `json:"command"`
	Args        []string   `json:"args"`
	Env         []EnvEntry `json:"env"`
	Cwd         string     `json:"cwd"`
	Digest      string     `json:"digest"`
	Previous    *Previous  `json:"previous"`
	Diff        []Change   `json:"diff"`
	DiffText    []string   `json:"diff_text"`
	AllowFlag   string     `json:"allow_flag"`
}

// Previous identifies the earlier grant a diff compares against.
type Previous struct {
	Digest      string `json:"digest"`
	CommandLine string `json:"command_line"`
	Cwd         string `json:"cwd"`
	GrantedAt   string `json:"granted_at"`
}

// PendingData is the envelope data of a PendingError.
type PendingData struct {
	Pending    []PendingServer `json:"pending"`
	StoreError *StoreProblem   `json:"store_error,omitempty"`
}

// StoreProblem is a store failure as envelope data.
type StoreProblem struct {
	Code    fault.Code `json:"code"`
	Message string     `json:"message"`
	Line    int        `json:"line,omitempty"`
	Reason  string     `json:"reason,omitempty"`
}

// ProblemOf renders a store error as data (nil for nil).
func ProblemOf(err error) *StoreProblem {
	if err == nil {
		return nil
	}
	p := &StoreProblem{Code: CodeStoreIO, Message: describeStoreProblem(err)}
	var c interface{ Code() fault.Code }
	if errors.As(err, &c) {
		p.Code = c.Code()
	}
	var fe *FoldError
	if errors.As(err, &fe) {
		p.Line, p.Reason = fe.Line, fe.Reason
	}
	return p
}

// StoreBlocks is the refusal of a write a store that fails closed would
// make pointless (a grant no fold will see) or of a command that must not
// report success on it: the store's own code (E311 for an unparseable line,
// E310/E312 for a refused or unreadable file, E318 for the home), what
// happened, and the store's message, which names the file and line and what
// to do. Its envelope data is {"store_error": …}.
func StoreBlocks(ferr error, what string) error {
	p := ProblemOf(ferr)
	return &Error{ErrCode: p.Code, Msg: what + ": " + p.Message, Data: map[string]any{"store_error": p}}
}

// ErrorData is {"pending":[…], "store_error":…}.
func (e *PendingError) ErrorData() any {
	data := PendingData{Pending: make([]PendingServer, 0, len(e.Pending)), StoreError: ProblemOf(e.Cause)}
	for _, d := range e.Pending {
		r := d.Server
		ps := PendingServer{Server: r.Name, CommandLine: r.CommandLine(), Command: r.Command, Args: r.Args,
			Env: r.Env, Cwd: r.Cwd, Digest: r.Digest, Diff: []Change{}, DiffText: []string{},
			AllowFlag: "--allow-mcp-stdio " + r.Digest}
		if ps.Env == nil {
			ps.Env = []EnvEntry{}
		}
		if d.Diff != nil {
			ps.Diff, ps.DiffText = d.Diff.Changes, d.Diff.Lines()
			if p := d.Diff.Previous; p != nil {
				ps.Previous = &Previous{Digest: p.Digest, CommandLine: p.CommandLine(), Cwd: p.Cwd,
					GrantedAt: p.GrantedAt.UTC().Format(timeLayout)}
			}
		}
		data.Pending = append(data.Pending, ps)
	}
	return data
}

// WriteHuman prints, per unapproved server: name, resolved command line, cwd,
// env names with kind, digest, the diff, and the exact flag to pass.
func (e *PendingError) WriteHuman(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("relavium: consent required (%s): %d stdio server(s) would be spawned and no one can be asked here (no TTY, --json or CI).\n",
		CodeConsentRequired, len(e.Pending))
	if e.Cause != nil {
		ew.printf("relavium: no remembered grant was trusted: %s\n", describeStoreProblem(e.Cause))
	}
	var flags []string
	for _, d := range e.Pending {
		r := d.Server
		ew.printf("\n  server   %s\n", quoteArg(r.Name))
		WriteServerDetails(ew, r, "  ")
		if d.Diff != nil {
			_ = d.Diff.WriteText(ew, "  ")
		}
		ew.printf("  approve  --allow-mcp-stdio %s\n", r.Digest)
		flags = append(flags, "--allow-mcp-stdio "+r.Digest)
	}
	ew.printf("\nReview each command above; to approve them for one run, add:\n  %s\n", strings.Join(flags, " "))
	if e.Undeclared {
		ew.printf("(not declared in a config or agent file, so it cannot be remembered with consent grant)\n")
	} else {
		ew.printf("or remember one on this machine with: relavium consent grant DIGEST (it asks on a terminal; elsewhere add --yes)\n")
	}
	return ew.err
}

// WriteServerDetails writes the command line, cwd, env (names and kinds,
// never values) and digest of r, one labelled line each, for prompts and
// headless output alike.
func WriteServerDetails(w io.Writer, r *Resolved, indent string) {
	fmt.Fprintf(w, "%scommand  %s\n", indent, r.CommandLine())
	fmt.Fprintf(w, "%scwd      %s\n", indent, quoteArg(r.Cwd))
	if len(r.Env) == 0 {
		fmt.Fprintf(w, "%senv      (none declared)\n", indent)
	}
	for i, e := range r.Env {
		label := "env     "
		if i > 0 {
			label = "        "
		}
		fmt.Fprintf(w, "%s%s %s (%s)\n", indent, label, quoteArg(e.Name), e.Describe())
	}
	fmt.Fprintf(w, "%sdigest   %s\n", indent, r.Digest)
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, a ...any) { fmt.Fprintf(e, format, a...) }
