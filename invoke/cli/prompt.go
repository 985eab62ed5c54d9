package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/session"
)

// CanPrompt is the one function that decides whether anyone can be asked:
// a TTY on stdin AND on stdout, no --json, and no CI variable in the
// environment (docs/mcp-integration.md "When there is no one to ask"). Everything in relavium
// that would prompt — consent, gates, destructive confirmations, elicitation —
// goes through it; when it is false those paths fail closed (exit 2) instead.
func CanPrompt(stdinTTY, stdoutTTY, jsonMode bool, lookupEnv func(string) (string, bool)) bool {
	if !stdinTTY || !stdoutTTY || jsonMode {
		return false
	}
	if lookupEnv != nil {
		if _, ci := lookupEnv("CI"); ci {
			return false
		}
	}
	return true
}

// terminalAsker is the session core's Asker on the terminal: a pending
// stdio server is put to the person on stderr — name, full command line,
// cwd, env names with their kind, digest and the diff against the closest
// earlier grant — and answered on stdin: [A]pprove & remember, approve
// [o]nce or [d]eny (the default, as is end of input). A call confirmation
// is asked in confirm.go, after the events printed by pr so far.
type terminalAsker struct {
	w   io.Writer
	r   io.Reader
	pr  *EventPrinter // nil: no event printer to wait for
	bus *engine.Bus
}

func (t *terminalAsker) Consent(ctx context.Context, dec consent.Decision) (session.Answer, error) {
	r := dec.Server
	var b strings.Builder
	fmt.Fprintf(&b, "\n? relavium wants to start the stdio MCP server %s\n", consent.Display(r.Name))
	consent.WriteServerDetails(&b, r, "  ")
	if dec.Diff != nil {
		_ = dec.Diff.WriteText(&b, "  ")
	}
	if dec.StoreErr != nil {
		fmt.Fprintf(&b, "  note: no remembered grant was trusted: %s\n", sanitize.Line(dec.StoreErr.Error()))
	}
	return t.approve(ctx, b.String())
}

// approve writes a question's details and asks the three answers a spawn
// and a secret binding share: [A]pprove & remember (a capital, never a
// lowercase a), approve [o]nce, or [d]eny (the default, as is end of input).
func (t *terminalAsker) approve(ctx context.Context, details string) (session.Answer, error) {
	if _, err := io.WriteString(t.w, details+"  [A]pprove & remember / approve [o]nce / [d]eny? "); err != nil {
		return session.Deny, err
	}
	ans, err := readAnswer(ctx, t.w, t.r, "  remembering takes a capital A ([A]pprove & remember / approve [o]nce / [d]eny)? ")
	if err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(t.w)
		return session.Deny, err
	}
	switch ans {
	case "A", "approve":
		return session.ApproveRemember, nil
	case "o", "once":
		return session.ApproveOnce, nil
	}
	return session.Deny, nil
}

// readAnswer reads one answer to a prompt, folded to lower case except for
// a capital A: remembering takes a capital A here as in the workbench's
// dialogs (one key, one meaning everywhere), so a lone lowercase a is
// asked for again with again (twice at most, then it is an ordinary
// answer the caller does not know: a no), never read as remembering.
func readAnswer(ctx context.Context, w io.Writer, r io.Reader, again string) (string, error) {
	for i := 0; ; i++ {
		line, err := ReadLine(ctx, r)
		ans := strings.TrimSpace(line)
		if ans == "A" {
			return ans, err
		}
		if ans == "a" && err == nil && i < 2 {
			fmt.Fprint(w, again)
			continue
		}
		return strings.ToLower(ans), err
	}
}

// Bind asks whether a secret of the person's stores may be sent to a
// network origin, in the words of Consent: the server, the secret by its
// reference (never its value), the origin, the header names and the
// digest; the same three answers.
func (t *terminalAsker) Bind(ctx context.Context, dec consent.BindingDecision) (session.Answer, error) {
	b := dec.Binding
	var sb strings.Builder
	if b.Helper != nil {
		fmt.Fprintf(&sb, "\n? the network MCP server %s runs a program to make its request headers; run it?\n", consent.Display(b.Server))
		consent.WriteHelperDetails(&sb, b, "  ")
		if dec.StoreErr != nil {
			fmt.Fprintf(&sb, "  note: no remembered grant was trusted: %s\n", sanitize.Line(dec.StoreErr.Error()))
		}
		return t.approve(ctx, sb.String())
	}
	if b.Local {
		fmt.Fprintf(&sb, "\n? the MCP server %s of another client's file points at a local address; dial it?\n", consent.Display(b.Server))
		consent.WriteLocalDetails(&sb, b, "  ")
		if dec.StoreErr != nil {
			fmt.Fprintf(&sb, "  note: no remembered grant was trusted: %s\n", sanitize.Line(dec.StoreErr.Error()))
		}
		return t.approve(ctx, sb.String())
	}
	fmt.Fprintf(&sb, "\n? the network MCP server %s would send a secret from your stores to %s\n", consent.Display(b.Server), consent.Display(b.Origin))
	consent.WriteBindingDetails(&sb, b, "  ")
	if len(dec.Added) > 0 {
		fmt.Fprintf(&sb, "  changed  header(s) %s now carry it; the binding granted earlier did not name them\n", consent.Display(strings.Join(dec.Added, ", ")))
	}
	if dec.StoreErr != nil {
		fmt.Fprintf(&sb, "  note: no remembered grant was trusted: %s\n", sanitize.Line(dec.StoreErr.Error()))
	}
	return t.approve(ctx, sb.String())
}

// BindRecorded says what became of a binding answer.
func (t *terminalAsker) BindRecorded(dec consent.BindingDecision, a session.Answer) {
	approved, denied := "approved", "denied: the server is not connected"
	switch b := dec.Binding; {
	case b.Helper != nil:
		denied = "denied: the helper is not run and the server is not connected"
	case b.Local:
		denied = "denied: the server is not dialled"
	default:
		approved = "bound"
	}
	t.said(a, dec.Binding.Digest, approved, denied)
}

// said writes the outcome of one answer: remembered (with its digest),
// for this run, or denied and what that leaves undone.
func (t *terminalAsker) said(a session.Answer, digest, approved, denied string) {
	switch a {
	case session.ApproveRemember:
		fmt.Fprintf(t.w, "  %s and remembered (%s)\n", approved, digest)
	case session.ApproveOnce:
		fmt.Fprintf(t.w, "  %s for this run\n", approved)
	default:
		fmt.Fprintf(t.w, "  %s\n", denied)
	}
}

// Recorded says what became of the answer.
func (t *terminalAsker) Recorded(dec consent.Decision, a session.Answer) {
	t.said(a, dec.Server.Digest, "approved", "denied: the server is not started")
}
