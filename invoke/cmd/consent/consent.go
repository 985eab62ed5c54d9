package consent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/session"
)

// ConsentGrantResult is the data of `relavium consent grant`.
type ConsentGrantResult struct {
	Servers        []string `json:"servers"`
	Digest         string   `json:"digest"`
	CommandLine    string   `json:"command_line"`
	Cwd            string   `json:"cwd"`
	AlreadyGranted bool     `json:"already_granted"`
	GrantedAt      string   `json:"granted_at,omitempty"`
}

// WriteHuman says what was granted.
func (g ConsentGrantResult) WriteHuman(w io.Writer) error {
	var b strings.Builder
	verb := "granted"
	if g.AlreadyGranted {
		verb = "already granted"
	}
	fmt.Fprintf(&b, "%s %s for %s\n  command  %s\n  cwd      %s\n", verb, g.Digest, strings.Join(g.Servers, ", "),
		g.CommandLine, consent.Display(g.Cwd))
	_, err := io.WriteString(w, b.String())
	return err
}

// RunConsentGrant is `relavium consent grant`: remember consent for a stdio
// server, or bind a secret to an origin.
func RunConsentGrant(ctx context.Context, inv *cli.Invocation) (any, error) {
	target := inv.Args[0]
	if consentLooksLikeBinding(target) {
		return runConsentBind(ctx, inv, target)
	}
	byDigest := consentLooksLikeDigest(target)
	if byDigest {
		if err := consent.CheckDigest("consent grant", target); err != nil {
			return nil, err
		}
		if res, ok, err := runConsentHelper(ctx, inv, target); ok {
			if err != nil {
				return nil, err
			}
			return res, nil
		}
	} else if res, ok, err := runConsentLocal(ctx, inv, target); ok {
		if err != nil {
			return nil, err
		}
		return res, nil
	}
	rows, err := consentResolveAll(inv)
	if err != nil {
		return nil, err
	}
	var match []*consent.Resolved
	var names []string
	for _, row := range rows {
		if !byDigest && row.server.Name == target && row.err != nil {
			return nil, row.err // the named server cannot be resolved: say why
		}
		if row.err != nil {
			continue
		}
		if (byDigest && row.resolved.Digest == target) || (!byDigest && row.resolved.Name == target) {
			match = append(match, row.resolved)
			names = append(names, row.resolved.Name)
		}
	}
	if len(match) == 0 {
		return nil, consentNothingToGrant(target, byDigest, rows)
	}
	r := match[0]
	store := consent.Open(inv.Env.Home)
	grants, ferr := store.Fold()
	if ferr != nil {
		// A grant appended to a store that fails closed would have no
		// effect: refuse, write nothing, and say why and what to do.
		return nil, consent.StoreBlocks(ferr, fmt.Sprintf("consent grant wrote nothing for %s: a grant has no effect while the grant store cannot be read", r.Digest))
	}
	res := ConsentGrantResult{Servers: names, Digest: r.Digest, CommandLine: r.CommandLine(), Cwd: r.Cwd}
	if g, ok := grants.Get(r.Digest); ok {
		res.AlreadyGranted, res.GrantedAt = true, g.GrantedAt.UTC().Format(time.RFC3339)
		return res, nil
	}
	if !inv.Bool("yes") {
		// Remembering consent is the decision relavium exists to ask for,
		// so it is asked like revoke is: on a terminal the person sees
		// exactly what will be trusted; with no one to ask, --yes says it.
		if !inv.CanPrompt() {
			return nil, &consent.Error{ErrCode: consent.CodeNeedsYes, Exit: cli.ExitUsage,
				Msg: fmt.Sprintf("consent grant remembers trust and no one can be asked here (no TTY, --json or CI); pass --yes to grant %s (%s)", r.Digest, r.CommandLine())}
		}
		ok, err := consentConfirmGrant(ctx, inv, r, names)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &consent.Error{ErrCode: consent.CodeRevokeCancelled, Msg: "grant cancelled; nothing was written"}
		}
	}
	at := consentNow(inv)
	if err := store.Grant(r, at); err != nil {
		return nil, err
	}
	res.GrantedAt = at.UTC().Format(time.RFC3339)
	return res, nil
}

// ConsentRevokeResult is the data of `relavium consent revoke`.
type ConsentRevokeResult struct {
	Digest      string `json:"digest"`
	CommandLine string `json:"command_line,omitempty"`
	// Binding is NAME@ORIGIN when the grant revoked was a secret binding.
	Binding string `json:"binding,omitempty"`
	// Local is the address when the grant revoked was a local endpoint.
	Local     string `json:"local_endpoint,omitempty"`
	RevokedAt string `json:"revoked_at"`
}

// WriteHuman says what was revoked.
func (r ConsentRevokeResult) WriteHuman(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "revoked %s", r.Digest)
	if r.CommandLine != "" {
		fmt.Fprintf(&b, " (%s)", r.CommandLine)
	}
	if r.Binding != "" {
		fmt.Fprintf(&b, " (secret binding %s)", consent.Display(r.Binding))
	}
	if r.Local != "" {
		fmt.Fprintf(&b, " (local address %s)", consent.Display(r.Local))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// RunConsentRevoke appends a revocation. It is destructive: it asks on a
// terminal, and with no one to ask it needs --yes (exit 2 otherwise). When
// the fold failed closed the live grants are unknown, so the tombstone is
// written anyway (a revocation of nothing is harmless; a lost one is not),
// and the command then fails with the store's code: the store still needs
// a person's repair.
func RunConsentRevoke(ctx context.Context, inv *cli.Invocation) (any, error) {
	digest := inv.Args[0]
	if err := consent.CheckDigest("consent revoke", digest); err != nil {
		return nil, err
	}
	store := consent.Open(inv.Env.Home)
	grants, ferr := store.Fold()
	res := ConsentRevokeResult{Digest: digest}
	g, live := grants.Get(digest)
	if ferr == nil && !live {
		return nil, &consent.Error{ErrCode: consent.CodeNoSuchGrant, Exit: cli.ExitUsage,
			Msg: fmt.Sprintf("no live grant has digest %s (see relavium consent ls)", digest)}
	}
	if live && g.IsBinding() {
		res.Binding = g.Secret + "@" + g.Origin
	} else if live && g.IsLocal() {
		res.Local = g.Origin
	} else if live {
		res.CommandLine = g.CommandLine()
	}
	if !inv.Bool("yes") {
		if !inv.CanPrompt() {
			return nil, &consent.Error{ErrCode: consent.CodeNeedsYes, Exit: cli.ExitUsage,
				Msg: fmt.Sprintf("consent revoke is destructive and no one can be asked here (no TTY, --json or CI); pass --yes to revoke %s", digest)}
		}
		ok, err := consentConfirmRevoke(ctx, inv, digest, g, ferr)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &consent.Error{ErrCode: consent.CodeRevokeCancelled, Msg: "revocation cancelled; nothing was written"}
		}
	}
	at := consentNow(inv)
	if err := store.Revoke(digest, at); err != nil {
		return nil, err
	}
	if ferr != nil {
		// The tombstone is in (a lost revocation is the failure that
		// matters), but the store still fails closed: say so, with its code.
		return nil, consent.StoreBlocks(ferr, fmt.Sprintf("the revocation of %s is recorded, but the grant store cannot be read", digest))
	}
	res.RevokedAt = at.UTC().Format(time.RFC3339)
	return res, nil
}

func consentConfirmGrant(ctx context.Context, inv *cli.Invocation, r *consent.Resolved, names []string) (bool, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "? remember consent for %s\n", consent.Display(strings.Join(names, ", ")))
	fmt.Fprintf(&b, "  command  %s\n  cwd      %s\n  digest   %s\n", r.CommandLine(), consent.Display(r.Cwd), r.Digest)
	b.WriteString("  it will be spawned without asking until revoked. grant? [y/N] ")
	return consentAnswer(ctx, inv, b.String())
}

func consentConfirmRevoke(ctx context.Context, inv *cli.Invocation, digest string, g *consent.Grant, ferr error) (bool, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "? revoke consent %s\n", digest)
	if g != nil && g.IsBinding() {
		var lines strings.Builder
		writeBindingGrant(&lines, g)
		fmt.Fprintf(&b, "%s  granted  %s\n", lines.String(), g.GrantedAt.UTC().Format(time.RFC3339))
		b.WriteString("  the secret will not be sent there again without asking. revoke? [y/N] ")
		return consentAnswer(ctx, inv, b.String())
	}
	if g != nil && g.IsHelper() {
		var lines strings.Builder
		writeHelperGrant(&lines, g)
		fmt.Fprintf(&b, "%s  granted  %s\n", lines.String(), g.GrantedAt.UTC().Format(time.RFC3339))
		b.WriteString("  the helper will not run again without asking. revoke? [y/N] ")
		return consentAnswer(ctx, inv, b.String())
	}
	if g != nil && g.IsLocal() {
		var lines strings.Builder
		writeLocalGrant(&lines, g)
		fmt.Fprintf(&b, "%s  granted  %s\n", lines.String(), g.GrantedAt.UTC().Format(time.RFC3339))
		b.WriteString("  the address will not be dialled again without asking. revoke? [y/N] ")
		return consentAnswer(ctx, inv, b.String())
	}
	if g != nil {
		fmt.Fprintf(&b, "  command  %s\n  cwd      %s\n  granted  %s\n", g.CommandLine(), consent.Display(g.Cwd),
			g.GrantedAt.UTC().Format(time.RFC3339))
	} else if ferr != nil {
		fmt.Fprintf(&b, "  (the grant store is unreadable, so whether this digest is granted is unknown)\n")
	}
	b.WriteString("  the server will be asked about again before its next spawn. revoke? [y/N] ")
	return consentAnswer(ctx, inv, b.String())
}

// consentAnswer asks question on stderr and reads one line: only y or yes
// is a yes; end of input is a no.
func consentAnswer(ctx context.Context, inv *cli.Invocation, question string) (bool, error) {
	if _, err := io.WriteString(inv.Env.Stderr, question); err != nil {
		return false, err
	}
	line, err := cli.ReadLine(ctx, inv.Env.Stdin)
	if err != nil {
		fmt.Fprintln(inv.Env.Stderr)
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// consentRow is one declared stdio server and its resolution.
type consentRow struct {
	server   config.Server
	resolved *consent.Resolved
	err      error
}

// consentResolveAll loads the configuration (and --agent's servers) and
// resolves every declared stdio server on the ambient PATH. A config error
// returns as is (exit 2); per-server resolution errors stay in their rows.
func consentResolveAll(inv *cli.Invocation) ([]consentRow, error) {
	cfg, err := inv.LoadConfig()
	if err != nil {
		return nil, err
	}
	servers, err := cfg.Declared(inv.Global.Agent)
	if err != nil {
		return nil, err
	}
	path := inv.Env.Getenv("PATH")
	var rows []consentRow
	for _, s := range servers {
		if s.Transport != host.TransportStdio {
			continue
		}
		cwd := s.Dir
		if cwd == "" {
			cwd = inv.Global.Project
		}
		s.Dir = cwd
		r, err := consent.Resolve(session.Declaration(s, cli.Sandboxing(inv)), path)
		if err != nil {
			err = consentAt(s.Pos, err)
		}
		rows = append(rows, consentRow{server: s, resolved: r, err: err})
	}
	return rows, nil
}

// consentAt prefixes a resolution error with where the server is declared.
func consentAt(pos config.Pos, err error) error {
	var ce *consent.Error
	if !errors.As(err, &ce) || pos.File == "" {
		return err
	}
	return &consent.Error{ErrCode: ce.ErrCode, Exit: ce.ExitCode(), Cause: ce.Cause,
		Msg: fmt.Sprintf("%s:%d:%d: %s", pos.File, pos.Line, pos.Col, ce.Msg)}
}

// consentResolveError reports every stdio server that cannot be resolved.
func consentResolveError(rows []consentRow) error {
	var errs []error
	for _, r := range rows {
		if r.err != nil {
			errs = append(errs, r.err)
		}
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return &consent.Error{ErrCode: cli.CodeOf(errs[0]), Exit: cli.ExitUsage, Cause: errors.Join(errs...),
		Msg: fmt.Sprintf("%d stdio servers cannot be resolved", len(errs))}
}

func consentNothingToGrant(target string, byDigest bool, rows []consentRow) error {
	var declared []string
	for _, r := range rows {
		if r.err == nil {
			declared = append(declared, consent.Display(r.resolved.Name)+" "+r.resolved.Digest)
		} else {
			declared = append(declared, consent.Display(r.server.Name)+" (cannot be resolved)")
		}
	}
	what := "is named " + consent.Display(target)
	if byDigest {
		what = "has digest " + target
	}
	if len(declared) == 0 {
		return &consent.Error{ErrCode: consent.CodeNoStdioServers, Exit: cli.ExitUsage,
			Msg: fmt.Sprintf("nothing to grant: no stdio server is declared, so none %s (a network server's header secrets are bound with consent grant NAME@ORIGIN)", what)}
	}
	return &consent.Error{ErrCode: consent.CodeNothingToGrant, Exit: cli.ExitUsage,
		Msg: fmt.Sprintf("no declared stdio server %s (declared: %s)", what, strings.Join(declared, ", "))}
}

// consentLooksLikeDigest tells a digest argument from a server name: a
// name cannot hold ':', so anything that does is judged as a digest (a
// mistyped "V1:…" or "v1-…:" gets the digest's own error, E303, not "no
// server is named …").
func consentLooksLikeDigest(s string) bool { return strings.Contains(s, ":") }

// consentNow is the invocation's clock.
func consentNow(inv *cli.Invocation) time.Time {
	if inv.Env.Now != nil {
		return inv.Env.Now()
	}
	return time.Now()
}
