package invoke

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/session"
)

// CallNeedsApproval is the data of an E542 refusal: which tool, whether its
// definition changed since it was accepted, and the ways out.
type CallNeedsApproval struct {
	Tool        string             `json:"tool"`
	Server      string             `json:"server"`
	Digest      string             `json:"digest"`
	Changed     bool               `json:"changed"`
	Annotations engine.Annotations `json:"annotations"`
	WaysOut     []string           `json:"ways_out"`
}

// confirmCall lets a call go ahead only on the person's word (consent's
// ClearCall): --yes for this call, the tool's exact name in the server's
// tools_auto_approve, or an approval remembered for this exact definition.
// The server's annotations (readOnlyHint and the rest) are shown but never
// skip the question: they are the server's own, untrusted, claims. Otherwise
// on a terminal the person is asked "this call / always for this definition
// / no"; with no one to ask it is E542 (exit 2) naming the ways out. A tool
// whose definition changed since it was accepted (a possible rug pull) is
// called only with a per-call yes: never on a remembered approval or
// tools_auto_approve, and "always" is not offered for it. The ad-hoc
// --url/--stdio server has no remembered approvals (its name says nothing
// about which server it is).
func confirmCall(ctx context.Context, inv *Invocation, pr *eventPrinter, bus *engine.Bus, def engine.ToolDef, servers []config.Server, adhoc bool) error {
	approvals := consent.OpenApprovals(inv.Env.Home, inv.Env.Now)
	cleared, storeErr := clearCall(inv, servers, def, inv.Bool("yes"), adhoc)
	if cleared != "" {
		return nil
	}
	if storeErr != nil {
		fmt.Fprintf(inv.Env.Stderr, "relavium: warning: %s\n", sanitize.Line(storeErr.Error()))
	}
	key := session.ToolKey(def)
	canRemember := !adhoc && !def.Changed
	if !inv.CanPrompt() {
		return needsApproval(def, adhoc)
	}
	if err := pr.catchUp(ctx, bus.Seq()); err != nil {
		return err
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	w := inv.Env.Stderr
	fmt.Fprintf(w, "? call %s (server %s)?\n", sanitize.Line(def.Name), sanitize.Line(def.Server))
	fmt.Fprintf(w, "  server's hint: %s — the server's own claim; hints never skip this question\n", hintWords(def.Annotations))
	if def.Changed {
		fmt.Fprintf(w, "  ⚑ its definition changed since you accepted it: see relavium mcp accept %s --diff\n", sanitize.Line(def.Name))
		fmt.Fprint(w, "  [y] this call  [N] no: ")
	} else {
		fmt.Fprint(w, "  [y] this call  [a] always for this definition  [N] no: ")
	}
	line, err := readLine(ctx, inv.Env.Stdin)
	if err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(w)
		return err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	case "a", "always":
		if !canRemember {
			break
		}
		if err := approvals.Approve(key); err != nil {
			// The person said yes to this call; only remembering failed.
			fmt.Fprintf(w, "relavium: warning: approved for this call only, not remembered: %s\n", sanitize.Line(err.Error()))
		}
		return nil
	}
	return &host.Error{ErrCode: host.CodeCallRefused, Server: def.Server, Msg: def.Name + " was not called (you answered no)"}
}

// clearCall is the session core's Clearance over servers: --yes, the
// server's tools_auto_approve and the approval store; a store that cannot
// be read clears nothing and its error comes back for a warning.
func clearCall(inv *Invocation, servers []config.Server, def engine.ToolDef, yes, adhoc bool) (consent.Clearance, error) {
	return session.New(sessionOptions(inv), servers).Clearance(def, yes, adhoc)
}

// hintWords is what the server's annotations claim, for the question.
func hintWords(a engine.Annotations) string {
	switch {
	case a.IsReadOnly():
		return "read-only"
	case a.IsDestructive():
		return "may be destructive"
	}
	return "may change things"
}

// needsApproval is E542: nobody can be asked, and nothing the person said
// beforehand covers this call.
func needsApproval(def engine.ToolDef, adhoc bool) error {
	name := sanitize.Line(def.Name)
	d := &CallNeedsApproval{Tool: def.Name, Server: def.Server, Digest: def.Digest, Changed: def.Changed, Annotations: def.Annotations}
	var msg string
	switch {
	case def.Changed:
		d.WaysOut = []string{
			"relavium mcp accept " + name + " --diff (review the change), then relavium mcp accept " + name,
			"--yes (this call only)",
		}
		msg = fmt.Sprintf("%s was not called: its definition changed since you accepted it, and no one can be asked here; review it with relavium mcp accept %s --diff and accept it with relavium mcp accept %s, or pass --yes to call it this once (a remembered approval or tools_auto_approve does not speak for a changed definition)", name, name, name)
	case adhoc:
		d.WaysOut = []string{"--yes (this call only)"}
		msg = fmt.Sprintf("%s was not called: no one can be asked here; pass --yes to call it (an ad-hoc server has no remembered approvals or tools_auto_approve)", name)
	default:
		tool := sanitize.Line(def.Tool)
		d.WaysOut = []string{
			"--yes (this call only)",
			"an approval remembered for this definition (answer \"always\" when asked on a terminal or in the workbench)",
			fmt.Sprintf("tools_auto_approve = [%q] on server %s in your config", tool, sanitize.Line(def.Server)),
		}
		msg = fmt.Sprintf("%s was not called: no one can be asked here; pass --yes for this call, remember an approval of this definition (answer \"always\" when asked on a terminal or in the workbench), or list %q in tools_auto_approve of server %s", name, tool, sanitize.Line(def.Server))
	}
	if def.Annotations.IsReadOnly() {
		msg += "; the server's read-only hint is its own claim and never skips the question"
	}
	return &host.Error{ErrCode: host.CodeNeedsYes, Exit: ExitUsage, Server: def.Server, Msg: msg, Data: d}
}
