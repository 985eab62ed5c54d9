package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/session"
)

// ConfirmCall lets a call go ahead only on the person's word, as the
// session core's ConfirmCall decides it (--yes, tools_auto_approve, or an
// approval remembered for this exact definition; never the server's
// annotations). On a terminal the person is asked by callAsker; with no one
// to ask it is E542 (exit 2) naming the ways out; the question is
// terminalAsker's.
func ConfirmCall(ctx context.Context, inv *Invocation, pr *EventPrinter, bus *engine.Bus, def engine.ToolDef, servers []config.Server, adhoc bool) error {
	opts := SessionOptions(inv)
	if inv.CanPrompt() {
		opts.Asker = &terminalAsker{w: inv.Env.Stderr, r: inv.Env.Stdin, pr: pr, bus: bus}
	}
	return session.New(opts, servers).ConfirmCall(ctx, def, inv.Bool("yes"), adhoc)
}

// ConfirmCall asks "this call / always for this definition / no" ("this
// call / no" for a changed definition or the ad-hoc server), once every
// event printed so far is on the screen, holding the printer while it asks.
func (c *terminalAsker) ConfirmCall(ctx context.Context, def engine.ToolDef, canRemember bool) (session.CallAnswer, error) {
	if c.pr != nil {
		if err := c.pr.CatchUp(ctx, c.bus.Seq()); err != nil {
			return session.CallRefused, err
		}
		c.pr.Mu.Lock()
		defer c.pr.Mu.Unlock()
	}
	w := c.w
	fmt.Fprintf(w, "? call %s (server %s)?\n", sanitize.Line(def.Name), sanitize.Line(def.Server))
	fmt.Fprintf(w, "  server's hint: %s — the server's own claim; hints never skip this question\n", hintWords(def.Annotations))
	if def.Changed {
		fmt.Fprintf(w, "  ⚑ its definition changed since you accepted it: see relavium mcp accept %s --diff\n", sanitize.Line(def.Name))
		fmt.Fprint(w, "  [y] this call  [N] no: ")
	} else {
		fmt.Fprint(w, "  [y] this call  [A] always for this definition  [N] no: ")
	}
	again := "  remembering takes a capital A ([y] this call  [A] always for this definition  [N] no): "
	if def.Changed {
		again = "  [y] this call  [N] no: "
	}
	ans, err := readAnswer(ctx, w, c.r, again)
	if err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(w)
		return session.CallRefused, err
	}
	switch ans {
	case "y", "yes":
		return session.CallOnce, nil
	case "A", "always":
		if canRemember {
			return session.CallAlways, nil
		}
	}
	return session.CallRefused, nil
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
