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

// ConsentList is the data of `relavium consent ls`: the folded grants,
// newest first, and — never silently — why the store read as empty when its
// fold failed closed.
type ConsentList struct {
	Path       string                `json:"path"`
	Grants     []*consent.Grant      `json:"grants"`
	StoreError *consent.StoreProblem `json:"store_error,omitempty"`
	// DeclaredAs maps a grant's digest to the servers of this project
	// (and --agent) that resolve to it now; absent outside a project.
	DeclaredAs map[string][]string `json:"declared_as,omitempty"`
}

// WriteHuman lists each grant with its command line, cwd, env names and time.
func (l ConsentList) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if l.StoreError != nil {
		fmt.Fprintf(&b, "grant store unreadable (%s): %s\n", l.StoreError.Code, l.StoreError.Message)
	}
	if len(l.Grants) == 0 {
		fmt.Fprintf(&b, "no live grants in %s\n", consent.Display(l.Path))
	}
	for _, g := range l.Grants {
		fmt.Fprintf(&b, "%s  granted %s\n", g.Digest, g.GrantedAt.UTC().Format(time.RFC3339))
		fmt.Fprintf(&b, "  server   %s\n", l.serverLine(g))
		if g.IsBinding() {
			writeBindingGrant(&b, g)
			continue
		}
		if g.IsLocal() {
			writeLocalGrant(&b, g)
			continue
		}
		if g.IsHelper() {
			writeHelperGrant(&b, g)
			continue
		}
		fmt.Fprintf(&b, "  command  %s\n", g.CommandLine())
		fmt.Fprintf(&b, "  cwd      %s\n", consent.Display(g.Cwd))
		if len(g.EnvNames) > 0 {
			names := make([]string, len(g.EnvNames))
			for i, n := range g.EnvNames {
				names[i] = consent.Display(n)
				if k, ok := g.KindOf(n); ok {
					names[i] += " (" + consent.Display(string(k)) + ")"
				}
			}
			fmt.Fprintf(&b, "  env      %s\n", strings.Join(names, ", "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// serverLine names the server a grant is for: the name it was granted
// under, and the servers declared here that resolve to it now.
func (l ConsentList) serverLine(g *consent.Grant) string {
	here := l.DeclaredAs[g.Digest]
	shown := make([]string, len(here))
	for i, n := range here {
		shown[i] = consent.Display(n)
	}
	switch {
	case g.Server == "" && len(here) == 0:
		return "(name not recorded; no server declared here resolves to it)"
	case g.Server == "":
		return strings.Join(shown, ", ") + " (declared here; the name was not recorded)"
	case len(here) == 0 || len(here) == 1 && here[0] == g.Server:
		return consent.Display(g.Server)
	}
	return consent.Display(g.Server) + " (declared here as " + strings.Join(shown, ", ") + ")"
}

// writeBindingGrant lists a secret binding's grant in the words of the
// binding question: the secret by reference, the origin, the headers.
func writeBindingGrant(b *strings.Builder, g *consent.Grant) {
	fmt.Fprintf(b, "  secret   %s (bound; value not shown)\n", consent.Display(consent.BindingRef(g.Secret)))
	fmt.Fprintf(b, "  origin   %s\n", consent.Display(g.Origin))
	fmt.Fprintf(b, "  headers  %s\n", consent.Display(strings.Join(g.Headers, ", ")))
}

// RunConsentList is `relavium consent ls`: list remembered grants, newest
// first.
func RunConsentList(_ context.Context, inv *cli.Invocation) (any, error) {
	store := consent.Open(inv.Env.Home)
	grants, err := store.Fold()
	l := ConsentList{Path: store.Path(), Grants: grants.List(), StoreError: consent.ProblemOf(err)}
	// Which declared server each grant is for, where a project is at hand;
	// a project that does not load leaves the list as the store has it.
	if rows, rerr := consentResolveAll(inv); rerr == nil {
		for _, r := range rows {
			if r.resolved == nil {
				continue
			}
			if l.DeclaredAs == nil {
				l.DeclaredAs = map[string][]string{}
			}
			l.DeclaredAs[r.resolved.Digest] = append(l.DeclaredAs[r.resolved.Digest], r.server.Name)
		}
		for _, b := range declaredBindings(inv) {
			if b.IsSecret() {
				continue
			}
			if l.DeclaredAs == nil {
				l.DeclaredAs = map[string][]string{}
			}
			l.DeclaredAs[b.Digest] = append(l.DeclaredAs[b.Digest], b.Server)
		}
	}
	return l, nil
}
