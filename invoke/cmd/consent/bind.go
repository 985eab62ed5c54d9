package consent

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/session"
)

// `relavium consent grant NAME@ORIGIN` remembers a secret binding: the
// secret NAME of the person's stores may go to ORIGIN in the headers the
// declared servers at that origin name. Like a stdio grant it is asked on
// a terminal (--yes elsewhere) and needs a declaration to grant: a
// binding no declared server would use is refused (E313), so a typo does
// not pass silently.

// ConsentBindResult is the data of `relavium consent grant NAME@ORIGIN`.
type ConsentBindResult struct {
	Servers        []string `json:"servers"`
	Secret         string   `json:"secret"`
	Origin         string   `json:"origin"`
	Headers        []string `json:"headers"`
	Digest         string   `json:"digest"`
	AlreadyGranted bool     `json:"already_granted"`
	GrantedAt      string   `json:"granted_at,omitempty"`
}

// WriteHuman says what was bound.
func (g ConsentBindResult) WriteHuman(w io.Writer) error {
	verb := "bound"
	if g.AlreadyGranted {
		verb = "already bound"
	}
	_, err := fmt.Fprintf(w, "%s %s to %s (%s) for %s\n  headers  %s\n", verb, consent.BindingRef(g.Secret), consent.Display(g.Origin), g.Digest,
		consent.Display(strings.Join(g.Servers, ", ")), consent.Display(strings.Join(g.Headers, ", ")))
	return err
}

// consentLooksLikeBinding tells NAME@ORIGIN from a digest or a name.
func consentLooksLikeBinding(s string) bool {
	return strings.Contains(s, "@") && strings.Contains(s, "://")
}

func runConsentBind(ctx context.Context, inv *cli.Invocation, target string) (any, error) {
	name, origin, err := consent.ParseAllowSecret(target)
	if err != nil {
		return nil, err
	}
	cfg, err := inv.LoadConfig()
	if err != nil {
		return nil, err
	}
	servers, err := cfg.Declared(inv.Global.Agent)
	if err != nil {
		return nil, err
	}
	var match []*consent.Binding
	var declared []string
	for _, b := range session.BindingsOf(servers, inv.Env.LookupEnv) {
		if b.Local {
			continue
		}
		declared = append(declared, b.Flag())
		if b.Secret == name && b.Origin == origin {
			match = append(match, b)
		}
	}
	if len(match) == 0 {
		list := "no declared network server's header names a secret"
		if len(declared) > 0 {
			list = "declared: " + strings.Join(slices.Compact(declared), ", ")
		}
		return nil, &consent.Error{ErrCode: consent.CodeNothingToGrant, Exit: cli.ExitUsage,
			Msg: fmt.Sprintf("no declared network server's headers or url send %s to %s (%s)", consent.BindingRef(name), origin, list)}
	}
	res := ConsentBindResult{Secret: name, Origin: origin, Digest: match[0].Digest}
	for _, b := range match {
		res.Servers = append(res.Servers, b.Server)
		res.Headers = append(res.Headers, b.Headers...)
	}
	slices.Sort(res.Headers)
	res.Headers = slices.Compact(res.Headers)
	store := consent.Open(inv.Env.Home)
	grants, ferr := store.Fold()
	if ferr != nil {
		return nil, consent.StoreBlocks(ferr, fmt.Sprintf("consent grant wrote nothing for %s: a grant has no effect while the grant store cannot be read", target))
	}
	if g, ok := grants.Get(res.Digest); ok {
		if missing := slices.DeleteFunc(slices.Clone(res.Headers), func(h string) bool { return slices.Contains(g.Headers, h) }); len(missing) == 0 {
			res.AlreadyGranted, res.GrantedAt = true, g.GrantedAt.UTC().Format(time.RFC3339)
			return res, nil
		}
		res.Headers = slices.Compact(slices.Sorted(slices.Values(append(res.Headers, g.Headers...))))
	}
	if !inv.Bool("yes") {
		if !inv.CanPrompt() {
			return nil, &consent.Error{ErrCode: consent.CodeNeedsYes, Exit: cli.ExitUsage,
				Msg: fmt.Sprintf("consent grant remembers trust and no one can be asked here (no TTY, --json or CI); pass --yes to bind {{secrets.%s}} to %s", name, origin)}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "? remember that %s may send a secret from your stores\n", consent.Display(strings.Join(res.Servers, ", ")))
		consent.WriteBindingDetails(&b, &consent.Binding{Secret: name, Origin: origin, Headers: res.Headers, Digest: res.Digest}, "  ")
		b.WriteString("  it will be sent there without asking until revoked. grant? [y/N] ")
		ok, err := consentAnswer(ctx, inv, b.String())
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &consent.Error{ErrCode: consent.CodeRevokeCancelled, Msg: "grant cancelled; nothing was written"}
		}
	}
	at := consentNow(inv)
	if err := store.GrantBinding(match[0], res.Headers, at); err != nil {
		return nil, err
	}
	res.GrantedAt = at.UTC().Format(time.RFC3339)
	return res, nil
}
