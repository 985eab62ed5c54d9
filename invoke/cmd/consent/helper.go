package consent

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/invoke/cli"
)

// `relavium consent grant DIGEST`, DIGEST a declared network server's
// headers helper (package consent's headers-helper decisions), remembers
// that helper: a local program, named by its digest as a stdio server is,
// and approved for one run by the same --allow-mcp-stdio DIGEST. Like
// every grant it is asked on a terminal (--yes elsewhere).

// ConsentHelperResult is the data of `relavium consent grant DIGEST` for
// a headers helper.
type ConsentHelperResult struct {
	Servers        []string `json:"servers"`
	Line           string   `json:"line"`
	Shell          string   `json:"shell"`
	Cwd            string   `json:"cwd"`
	Origin         string   `json:"origin"`
	Source         string   `json:"source"`
	Digest         string   `json:"digest"`
	AlreadyGranted bool     `json:"already_granted"`
	GrantedAt      string   `json:"granted_at,omitempty"`
}

// WriteHuman says what was remembered.
func (g ConsentHelperResult) WriteHuman(w io.Writer) error {
	verb := "granted"
	if g.AlreadyGranted {
		verb = "already granted"
	}
	_, err := fmt.Fprintf(w, "%s %s for %s (headers helper)\n  runs     %s -c %s\n  cwd      %s\n  sends    to %s\n", verb, g.Digest,
		consent.Display(strings.Join(g.Servers, ", ")), consent.Display(g.Shell), consent.Display(g.Line), consent.Display(g.Cwd), consent.Display(g.Origin))
	return err
}

// declaredHelpers are the headers helpers of the declared servers; a
// configuration that does not load has none.
func declaredHelpers(inv *cli.Invocation) []*consent.Binding {
	var out []*consent.Binding
	for _, b := range declaredBindings(inv) {
		if b.Helper != nil {
			out = append(out, b)
		}
	}
	return out
}

// runConsentHelper remembers the headers helper whose digest is digest;
// ok is false when no declared helper has it.
func runConsentHelper(ctx context.Context, inv *cli.Invocation, digest string) (res ConsentHelperResult, ok bool, err error) {
	var b *consent.Binding
	for _, h := range declaredHelpers(inv) {
		if h.Digest == digest {
			if b == nil {
				b = h
			}
			res.Servers = append(res.Servers, h.Server)
		}
	}
	if b == nil {
		return res, false, nil
	}
	res.Line, res.Shell, res.Cwd, res.Origin, res.Source, res.Digest = b.Helper.Line, b.Helper.Shell, b.Helper.Cwd, b.Origin, b.Source, b.Digest
	store := consent.Open(inv.Env.Home)
	grants, ferr := store.Fold()
	if ferr != nil {
		return res, true, consent.StoreBlocks(ferr, fmt.Sprintf("consent grant wrote nothing for %s: a grant has no effect while the grant store cannot be read", digest))
	}
	if g, live := grants.Get(b.Digest); live {
		res.AlreadyGranted, res.GrantedAt = true, g.GrantedAt.UTC().Format(time.RFC3339)
		return res, true, nil
	}
	if !inv.Bool("yes") {
		if !inv.CanPrompt() {
			return res, true, &consent.Error{ErrCode: consent.CodeNeedsYes, Exit: cli.ExitUsage,
				Msg: fmt.Sprintf("consent grant remembers trust and no one can be asked here (no TTY, --json or CI); pass --yes to let relavium run the headers helper of %s", consent.Display(b.Server))}
		}
		var q strings.Builder
		fmt.Fprintf(&q, "? remember that relavium may run the headers helper of %s\n", consent.Display(b.Server))
		consent.WriteHelperDetails(&q, b, "  ")
		q.WriteString("  it will run before each connect without asking until revoked. grant? [y/N] ")
		yes, err := consentAnswer(ctx, inv, q.String())
		if err != nil {
			return res, true, err
		}
		if !yes {
			return res, true, &consent.Error{ErrCode: consent.CodeRevokeCancelled, Msg: "grant cancelled; nothing was written"}
		}
	}
	at := consentNow(inv)
	if err := store.GrantBinding(b, nil, at); err != nil {
		return res, true, err
	}
	res.GrantedAt = at.UTC().Format(time.RFC3339)
	return res, true, nil
}

// writeHelperGrant lists a headers helper's grant in the words of its
// question.
func writeHelperGrant(b *strings.Builder, g *consent.Grant) {
	fmt.Fprintf(b, "  runs     %s (headers helper)\n", g.CommandLine())
	fmt.Fprintf(b, "  cwd      %s\n", consent.Display(g.Cwd))
	fmt.Fprintf(b, "  sends    its output as headers to %s\n", consent.Display(g.Origin))
}
