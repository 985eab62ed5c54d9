package consent

import (
	"context"
	"fmt"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/invoke/cli"
)

// rememberBinding is how `consent grant` keeps a local address or a
// headers helper (bindings with nothing to merge): with the grant store
// readable, a live grant of the same digest is reported as already
// granted; otherwise --yes, or the person's yes to question on a terminal,
// writes the grant. target names it when the store cannot be read, task
// says what --yes would allow.
func rememberBinding(ctx context.Context, inv *cli.Invocation, b *consent.Binding, target, task, question string) (grantedAt string, already bool, err error) {
	store := consent.Open(inv.Env.Home)
	grants, ferr := store.Fold()
	if ferr != nil {
		return "", false, consent.StoreBlocks(ferr, fmt.Sprintf("consent grant wrote nothing for %s: a grant has no effect while the grant store cannot be read", target))
	}
	if g, live := grants.Get(b.Digest); live {
		return g.GrantedAt.UTC().Format(time.RFC3339), true, nil
	}
	if !inv.Bool("yes") {
		if !inv.CanPrompt() {
			return "", false, &consent.Error{ErrCode: consent.CodeNeedsYes, Exit: cli.ExitUsage,
				Msg: "consent grant remembers trust and no one can be asked here (no TTY, --json or CI); pass --yes to " + task}
		}
		yes, err := consentAnswer(ctx, inv, question)
		if err != nil {
			return "", false, err
		}
		if !yes {
			return "", false, &consent.Error{ErrCode: consent.CodeRevokeCancelled, Msg: "grant cancelled; nothing was written"}
		}
	}
	at := consentNow(inv)
	if err := store.GrantBinding(b, nil, at); err != nil {
		return "", false, err
	}
	return at.UTC().Format(time.RFC3339), false, nil
}
