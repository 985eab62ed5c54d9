package consent

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/session"
)

// `relavium consent grant NAME`, NAME a server of another client's file
// whose url names a loopback or private address, remembers that address
// (package consent's local endpoints): the one rule is the server's name,
// as --allow-local NAME approves it for one run. Like every grant it is
// asked on a terminal (--yes elsewhere).

// ConsentLocalResult is the data of `relavium consent grant NAME` for a
// server held for its local address.
type ConsentLocalResult struct {
	Servers        []string `json:"servers"`
	Origin         string   `json:"origin"`
	Source         string   `json:"source"`
	Digest         string   `json:"digest"`
	AlreadyGranted bool     `json:"already_granted"`
	GrantedAt      string   `json:"granted_at,omitempty"`
}

// WriteHuman says what was remembered.
func (g ConsentLocalResult) WriteHuman(w io.Writer) error {
	verb := "granted"
	if g.AlreadyGranted {
		verb = "already granted"
	}
	_, err := fmt.Fprintf(w, "%s %s for %s\n  from     %s\n  address  %s (a loopback or private address)\n", verb, g.Digest,
		consent.Display(strings.Join(g.Servers, ", ")), consent.Display(g.Source), consent.Display(g.Origin))
	return err
}

// declaredBindings are the bindings of the declared servers (secrets,
// local endpoints, headers helpers); a configuration that does not load
// has none.
func declaredBindings(inv *cli.Invocation) []*consent.Binding {
	cfg, err := inv.LoadConfig()
	if err != nil {
		return nil
	}
	servers, err := cfg.Declared(inv.Global.Agent)
	if err != nil {
		return nil
	}
	return session.BindingsOf(servers, inv.Env.LookupEnv)
}

// heldLocals are the local endpoints of the declared servers held for the
// person's word; a configuration that does not load has none.
func heldLocals(inv *cli.Invocation) []*consent.Binding {
	var out []*consent.Binding
	for _, b := range declaredBindings(inv) {
		if b.Local {
			out = append(out, b)
		}
	}
	return out
}

// runConsentLocal remembers the local address of the held server name;
// ok is false when no held server has that name.
func runConsentLocal(ctx context.Context, inv *cli.Invocation, name string) (res ConsentLocalResult, ok bool, err error) {
	var b *consent.Binding
	for _, l := range heldLocals(inv) {
		if l.Server == name {
			b = l
		}
	}
	if b == nil {
		return res, false, nil
	}
	res = ConsentLocalResult{Servers: []string{b.Server}, Origin: b.Origin, Source: b.Source, Digest: b.Digest}
	var q strings.Builder
	fmt.Fprintf(&q, "? remember that relavium may dial the local address of %s\n", consent.Display(name))
	consent.WriteLocalDetails(&q, b, "  ")
	q.WriteString("  it will be dialled without asking until revoked. grant? [y/N] ")
	res.GrantedAt, res.AlreadyGranted, err = rememberBinding(ctx, inv, b, b.Origin,
		fmt.Sprintf("let relavium dial %s (server %s)", b.Origin, consent.Display(name)), q.String())
	return res, true, err
}

// writeLocalGrant lists a local endpoint's grant in the words of its
// question.
func writeLocalGrant(b *strings.Builder, g *consent.Grant) {
	fmt.Fprintf(b, "  address  %s (a loopback or private address: local endpoint)\n", consent.Display(g.Origin))
}
