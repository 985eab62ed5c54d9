package consent

import (
	"context"
	"fmt"
	"io"
	"strings"

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
	var q strings.Builder
	fmt.Fprintf(&q, "? remember that relavium may run the headers helper of %s\n", consent.Display(b.Server))
	consent.WriteHelperDetails(&q, b, "  ")
	q.WriteString("  it will run before each connect without asking until revoked. grant? [y/N] ")
	res.GrantedAt, res.AlreadyGranted, err = rememberBinding(ctx, inv, b, digest,
		"let relavium run the headers helper of "+consent.Display(b.Server), q.String())
	return res, true, err
}

// writeHelperGrant lists a headers helper's grant in the words of its
// question.
func writeHelperGrant(b *strings.Builder, g *consent.Grant) {
	fmt.Fprintf(b, "  runs     %s (headers helper)\n", g.CommandLine())
	fmt.Fprintf(b, "  cwd      %s\n", consent.Display(g.Cwd))
	fmt.Fprintf(b, "  sends    its output as headers to %s\n", consent.Display(g.Origin))
}
