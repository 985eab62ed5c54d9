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
	"github.com/relavium/relavium/host/netguard"
)

// LiveHost is a connected set of servers: the engine's ToolHost plus Close,
// which tears every session and child process down.
type LiveHost interface {
	engine.ToolHost
	Close() error
}

// connectServers is the one path every command (session, mcp ls/call, run)
// takes to connect declared servers: stdio commands are resolved and put to
// consent (asked on a TTY through inv.CanPrompt, else exit 2 with the
// digests), urls are admitted by the network guard, then host.Start
// connects everything concurrently, fail-loud. Elicitation follows the
// command's --elicit flag when it has one (decline otherwise).
func connectServers(ctx context.Context, inv *Invocation, servers []config.Server, em engine.Emitter) (LiveHost, error) {
	h, err := connectWith(ctx, inv, servers, em, connectOptions{})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// connectOptions narrow what connectWith connects.
type connectOptions struct {
	// only, when set, selects the servers to connect; every declared stdio
	// server is still resolved and decided (an --allow-mcp-stdio digest is
	// checked against all of them).
	only func(name string) bool
	// timeouts lowers the connect, discovery and call deadlines (tests).
	timeouts host.Timeouts
	// decider, when set, decides instead of a fresh Decider, so that a
	// session's answers (approve once, deny) hold across connects (the TUI).
	decider *consent.Decider
	// elicitor, when set, answers elicitation instead of the --elicit policy.
	elicitor engine.Elicitor
	// noPrompt: a server still needing consent fails the connect (E301)
	// instead of a terminal prompt (the TUI asks in its own dialog).
	noPrompt bool
}

func connectWith(ctx context.Context, inv *Invocation, servers []config.Server, em engine.Emitter, co connectOptions) (*host.Host, error) {
	if em == nil {
		em = engine.Discard{}
	}
	selected := func(name string) bool { return co.only == nil || co.only(name) }

	for _, s := range servers {
		if s.Transport == host.TransportStdio && selected(s.Name) {
			em.Emit(engine.Event{Type: engine.EventServer, Data: engine.ServerData{Server: s.Name, State: engine.StateResolving, Transport: s.Transport}})
		}
	}
	resolved, byName, failed := resolveStdio(inv, servers)
	for _, s := range servers {
		if err, ok := failed[s.Name]; ok && selected(s.Name) {
			return nil, err // a server not connected here needs no digest
		}
	}

	decider := co.decider
	if decider == nil {
		decider = consent.NewDecider(consent.Open(inv.Env.Home), inv.Global.AllowStdio, inv.Env.Now)
	}
	decisions, err := decider.Decide(resolved)
	if err != nil {
		return nil, err
	}
	var pending []consent.Decision
	for _, d := range decisions {
		if d.State == consent.NeedsConsent && selected(d.Server.Name) {
			pending = append(pending, d)
			em.Emit(engine.Event{Type: engine.EventServer, Data: engine.ServerData{Server: d.Server.Name, State: engine.StateNeedsConsent,
				Transport: host.TransportStdio, Digest: d.Server.Digest}})
		}
	}
	if err := consent.Require(pending, inv.CanPrompt() && !co.noPrompt); err != nil {
		var pe *consent.PendingError
		if errors.As(err, &pe) {
			pe.Undeclared = !anyDeclared(servers, pending)
		}
		return nil, err
	}
	if len(pending) == 0 && !co.noPrompt {
		warnStore(inv.Env.Stderr, decisions)
	}
	denied := map[string]bool{}
	for _, d := range decisions {
		if d.State == consent.Denied {
			denied[d.Server.Digest] = true
		}
	}
	for _, d := range pending {
		ok, err := askConsent(ctx, inv, decider, d)
		if err != nil {
			return nil, err
		}
		if !ok {
			denied[d.Server.Digest] = true
		}
	}

	opts := host.Options{
		Home:          inv.Env.Home,
		Environ:       inv.Env.Environ,
		Secrets:       host.SecretChain{host.EnvSecrets{LookupEnv: inv.Env.LookupEnv}, host.NewFileSecrets(inv.Env.Home)},
		Emitter:       em,
		Elicitor:      elicitorFor(inv),
		ClientVersion: inv.Env.Version,
		Timeouts:      co.timeouts,
	}
	if co.elicitor != nil {
		opts.Elicitor = co.elicitor
	}
	var guard *netguard.Guard
	for _, s := range servers {
		if !selected(s.Name) {
			continue
		}
		hs := host.Server{Name: s.Name, Transport: s.Transport, ConnectTimeout: s.ConnectTimeout, ToolsAllowlist: s.ToolsAllowlist}
		if s.Transport == host.TransportStdio {
			r := byName[s.Name]
			if denied[r.Digest] {
				opts.NotStarted = append(opts.NotStarted, host.NotStarted{Name: s.Name, Transport: s.Transport, Digest: r.Digest,
					Code: consent.CodeDenied, Reason: "consent denied"})
				em.Emit(engine.Event{Type: engine.EventServer, Data: engine.ServerData{Server: s.Name, State: engine.StateFailed,
					Transport: s.Transport, Digest: r.Digest, ErrorCode: consent.CodeDenied, Error: "consent denied"}})
				continue
			}
			hs.Stdio = r
		} else {
			if guard == nil {
				guard = netguard.New()
				opts.Guard = guard
			}
			t, err := guard.Admit(s.URL, s.Transport, s.AllowLocalEndpoint)
			if err != nil {
				return nil, withSource(adhocRefusal(err, s), s)
			}
			hs.Target = t
		}
		opts.Servers = append(opts.Servers, hs)
	}
	return host.Start(ctx, opts)
}

// adhocOptIn rewords the guard's remedies for the ad-hoc --url server,
// whose local opt-in is the --allow-local-endpoint flag, not a config field
// a person would look for and not find.
var adhocOptIn = strings.NewReplacer(
	"the server does not set allow_local_endpoint", "--allow-local-endpoint was not given",
	"set allow_local_endpoint = true on this server", "pass --allow-local-endpoint",
	"set allow_local_endpoint = true", "pass --allow-local-endpoint",
	"declared local (allow_local_endpoint)", "opted in with --allow-local-endpoint",
)

// adhocRefusal is err, with the remedy of a guard refusal of the ad-hoc
// --url server in the flag's terms.
func adhocRefusal(err error, s config.Server) error {
	ge, ok := netguard.AsRefusal(err)
	if !ok || s.Name != adhocServer || s.Pos.File != "" {
		return err
	}
	r := *ge
	r.Msg, r.Remedy = adhocOptIn.Replace(r.Msg), adhocOptIn.Replace(r.Remedy)
	return &r
}

// declarationOf is a config server as consent resolves it.
func declarationOf(s config.Server) consent.Declaration {
	env := make([]consent.EnvVar, len(s.Env))
	for i, e := range s.Env {
		env[i] = consent.EnvVar{Name: e.Name, Value: e.Value}
	}
	return consent.Declaration{Name: s.Name, Command: s.Command, Args: s.Args, Env: env, Cwd: s.Dir}
}

// withSource names where the refused server is declared.
func withSource(err error, s config.Server) error {
	if s.Pos.File == "" {
		return err
	}
	return &sourcedError{err: err, where: fmt.Sprintf("%s:%d:%d", s.Pos.File, s.Pos.Line, s.Pos.Col)}
}

// sourcedError prefixes a coded error with the declaration's position; it
// keeps the code, exit class and data of the error it wraps.
type sourcedError struct {
	err   error
	where string
}

func (e *sourcedError) Error() string { return e.where + ": " + e.err.Error() }
func (e *sourcedError) Unwrap() error { return e.err }

// Code is the wrapped error's code.
func (e *sourcedError) Code() string { return CodeOf(e.err) }

// ExitCode is the wrapped error's exit class.
func (e *sourcedError) ExitCode() int { return ExitCodeOf(e.err) }

// Message is the wrapped message with the position in front.
func (e *sourcedError) Message() string { return e.where + ": " + messageOf(codedOf(e.err)) }

// ErrorData is the wrapped error's data.
func (e *sourcedError) ErrorData() any {
	var d DataCarrier
	if errors.As(e.err, &d) {
		return d.ErrorData()
	}
	return nil
}

func codedOf(err error) error {
	var c Coded
	if errors.As(err, &c) {
		return c
	}
	return err
}

// elicitorFor is the headless elicitation policy of the command: --elicit
// decline (the default) or defaults.
func elicitorFor(inv *Invocation) engine.Elicitor {
	if inv.flags != nil && inv.flags.Lookup("elicit") != nil && inv.String("elicit") == "defaults" {
		return host.DefaultsElicitor{}
	}
	return host.DeclineElicitor{}
}

// askConsent puts one pending stdio server to the person in the terminal:
// name, full command line, cwd, env names with their kind, digest and the
// diff against the closest earlier grant; [a]pprove & remember, approve
// [o]nce or [d]eny (the default, as is end of input).
func askConsent(ctx context.Context, inv *Invocation, d *consent.Decider, dec consent.Decision) (bool, error) {
	w := inv.Env.Stderr
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
	b.WriteString("  [a]pprove & remember / approve [o]nce / [d]eny? ")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return false, err
	}
	line, err := readLine(ctx, inv.Env.Stdin)
	if err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(w)
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "a", "approve":
		if err := d.Remember(r); err != nil {
			return false, err
		}
		fmt.Fprintf(w, "  approved and remembered (%s)\n", r.Digest)
		return true, nil
	case "o", "once":
		d.ApproveOnce(r.Digest)
		fmt.Fprintln(w, "  approved for this run")
		return true, nil
	}
	d.Deny(r.Digest)
	fmt.Fprintln(w, "  denied: the server is not started")
	return false, nil
}

// warnStore says, once, that the grant store could not be trusted when no
// prompt or pending list is there to say it (every server was approved some
// other way, e.g. --allow-mcp-stdio): a fold failure is never silent.
func warnStore(w io.Writer, decisions []consent.Decision) {
	for _, d := range decisions {
		if d.StoreErr != nil {
			fmt.Fprintf(w, "relavium: warning: no remembered consent grant was trusted: %s\n", sanitize.Line(d.StoreErr.Error()))
			return
		}
	}
}

// resolveStdio resolves every declared stdio server: the absolute command
// its digest names and that is later spawned. A server that does not
// resolve is in failed (the error names its source), not in resolved.
func resolveStdio(inv *Invocation, servers []config.Server) (resolved []*consent.Resolved, byName map[string]*consent.Resolved, failed map[string]error) {
	byName, failed = map[string]*consent.Resolved{}, map[string]error{}
	for _, s := range servers {
		if s.Transport != host.TransportStdio {
			continue
		}
		r, err := consent.Resolve(declarationOf(s), inv.Env.Getenv("PATH"))
		if err != nil {
			failed[s.Name] = withSource(err, s)
			continue
		}
		resolved = append(resolved, r)
		byName[s.Name] = r
	}
	return resolved, byName, failed
}

// anyDeclared reports whether a pending server comes from a config or agent
// file (which `consent grant` can remember), not the demo or an ad-hoc
// --stdio server (which carry no source position).
func anyDeclared(servers []config.Server, pending []consent.Decision) bool {
	for _, d := range pending {
		for _, s := range servers {
			if s.Name == d.Server.Name && s.Pos.File != "" {
				return true
			}
		}
	}
	return false
}
