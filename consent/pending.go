package consent

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/sandbox"
)

// Require is the headless policy. When someone can be asked (canPrompt) it
// returns nil and the caller asks. Otherwise, if any server needs consent, it
// returns a *PendingError (E301, exit 2) listing each; nil when every server
// is approved or denied.
func Require(decisions []Decision, canPrompt bool) error {
	return RequireAll(decisions, nil, canPrompt)
}

// RequireAll is Require over stdio servers, secret bindings and local
// endpoints together: headless, one *PendingError lists every stdio
// server and every binding still needing consent — E301 when a stdio
// server is among them, else E323 when a secret is, else E327 (only
// local endpoints) — so one run says everything there is to approve.
func RequireAll(decisions []Decision, bindings []BindingDecision, canPrompt bool) error {
	if canPrompt {
		return nil
	}
	pe := &PendingError{Base: fault.Base{ErrCode: CodeConsentRequired, Exit: fault.ExitUsage}}
	for _, d := range decisions {
		if d.State != NeedsConsent {
			continue
		}
		pe.Pending = append(pe.Pending, d)
		if pe.Cause == nil {
			pe.Cause = d.StoreErr
		}
	}
	for _, b := range bindings {
		if b.State != NeedsConsent {
			continue
		}
		pe.Bindings = append(pe.Bindings, b)
		if pe.Cause == nil {
			pe.Cause = b.StoreErr
		}
	}
	if len(pe.Pending) == 0 && len(pe.Bindings) == 0 {
		return nil
	}
	switch {
	case len(pe.Pending) > 0, slices.ContainsFunc(pe.Bindings, func(b BindingDecision) bool { return b.Binding.Helper != nil }):
		// a local program (a stdio server, a headers helper) waits: E301
	case slices.ContainsFunc(pe.Bindings, func(b BindingDecision) bool { return b.Binding.IsSecret() }):
		pe.ErrCode = CodeSecretUnbound
	default:
		pe.ErrCode = CodeLocalHeld
	}
	return pe
}

// PendingError is consent that no one was there to give: no TTY, --json, or
// CI. It names each unapproved server with its resolved command line, digest
// and diff, and the exact --allow-mcp-stdio flag that approves it. Its code
// (E301) and exit (2: consent no one could give) are fault.Base's; its Cause
// is the store problem, if any, that made remembered grants untrusted.
type PendingError struct {
	fault.Base
	Pending []Decision
	// Bindings are the secrets that would go to a network origin they are
	// not bound to, each approved by --allow-secret NAME@ORIGIN, and the
	// local endpoints waiting for the person's word (Binding.Local), each
	// approved by --allow-local NAME.
	Bindings []BindingDecision
	// Undeclared: no pending server is declared in a config or agent file
	// (the demo, an ad-hoc --stdio server), so `consent grant` cannot
	// remember it; only --allow-mcp-stdio approves it.
	Undeclared bool
}

func (e *PendingError) Error() string { return string(e.ErrCode) + ": " + e.Message() }

// Message is the one-line summary.
func (e *PendingError) Message() string {
	var parts []string
	if len(e.Pending) > 0 {
		names := make([]string, len(e.Pending))
		for i, d := range e.Pending {
			names[i] = quoteArg(d.Server.Name)
		}
		parts = append(parts, fmt.Sprintf("consent required for %d stdio server(s) (%s) and no one can be asked here (no TTY, --json or CI); review each and pass --allow-mcp-stdio DIGEST",
			len(e.Pending), strings.Join(names, ", ")))
	}
	secrets, locals, helpers := e.split()
	if len(helpers) > 0 {
		names := make([]string, len(helpers))
		for i, b := range helpers {
			names[i] = quoteArg(b.Binding.Server)
		}
		parts = append(parts, fmt.Sprintf("%d network server(s) (%s) run a headers helper, a local program, before connecting, and no one can be asked here (no TTY, --json or CI); nothing was run or dialled; review each and pass --allow-mcp-stdio DIGEST, or remember it with: relavium consent grant DIGEST",
			len(helpers), strings.Join(names, ", ")))
	}
	if len(secrets) > 0 {
		names := make([]string, len(secrets))
		for i, b := range secrets {
			names[i] = fmt.Sprintf("%s to %s for server %s", b.Binding.Ref(), b.Binding.Origin, quoteArg(b.Binding.Server))
		}
		parts = append(parts, fmt.Sprintf("%d secret(s) would be sent where they are not bound (%s) and no one can be asked here (no TTY, --json or CI); nothing was dialled; review each and pass --allow-secret NAME@ORIGIN, or remember it with: relavium consent grant NAME@ORIGIN",
			len(secrets), strings.Join(names, ", ")))
	}
	if len(locals) > 0 {
		names := make([]string, len(locals))
		for i, b := range locals {
			names[i] = fmt.Sprintf("%s at %s", quoteArg(b.Binding.Server), b.Binding.Origin)
		}
		parts = append(parts, fmt.Sprintf("%d server(s) of another client's file point at a loopback or private address (%s) that waits for your word, and no one can be asked here (no TTY, --json or CI); nothing was dialled; if it is yours, pass --allow-local NAME, or remember it with: relavium consent grant NAME",
			len(locals), strings.Join(names, ", ")))
	}
	return strings.Join(parts, "; ")
}

// split separates the pending secret bindings, the local endpoints and
// the headers helpers.
func (e *PendingError) split() (secrets, locals, helpers []BindingDecision) {
	for _, b := range e.Bindings {
		switch {
		case b.Binding.Helper != nil:
			helpers = append(helpers, b)
		case b.Binding.Local:
			locals = append(locals, b)
		default:
			secrets = append(secrets, b)
		}
	}
	return secrets, locals, helpers
}

// PendingServer is one entry of the envelope's pending[] list.
type PendingServer struct {
	Server      string     `json:"server"`
	CommandLine string     `json:"command_line"`
	Command     string     `json:"command"`
	Args        []string   `json:"args"`
	Env         []EnvEntry `json:"env"`
	Cwd         string     `json:"cwd"`
	Digest      string     `json:"digest"`
	Previous    *Previous  `json:"previous"`
	Diff        []Change   `json:"diff"`
	DiffText    []string   `json:"diff_text"`
	AllowFlag   string     `json:"allow_flag"`
	// Sandbox is the policy the server would run under (nil: none).
	Sandbox *sandbox.Policy `json:"sandbox,omitempty"`
}

// Previous identifies the earlier grant a diff compares against.
type Previous struct {
	Digest      string `json:"digest"`
	CommandLine string `json:"command_line"`
	Cwd         string `json:"cwd"`
	GrantedAt   string `json:"granted_at"`
}

// PendingData is the envelope data of a PendingError.
type PendingData struct {
	Pending  []PendingServer  `json:"pending"`
	Bindings []PendingBinding `json:"bindings,omitempty"`
	// Local are the servers whose loopback or private address waits for
	// the person's word (local.go).
	Local []PendingLocal `json:"local_endpoints,omitempty"`
	// Helpers are the headers helpers waiting for consent (helper.go).
	Helpers    []PendingHelper `json:"headers_helpers,omitempty"`
	StoreError *StoreProblem   `json:"store_error,omitempty"`
}

// PendingHelper is one entry of the envelope's headers_helpers[] list: a
// network server's headers helper, not run until the person approves it.
type PendingHelper struct {
	Server    string `json:"server"`
	Source    string `json:"source"` // file:line:col where the server is declared
	Line      string `json:"line"`   // the shell line as written
	Shell     string `json:"shell"`  // the absolute shell that runs it
	Cwd       string `json:"cwd"`
	Origin    string `json:"origin"` // where its headers go
	Digest    string `json:"digest"`
	AllowFlag string `json:"allow_flag"`
	Grant     string `json:"grant"` // the command that remembers it
}

// PendingLocal is one entry of the envelope's local_endpoints[] list: a
// server of another client's file whose url names a loopback or private
// address, not dialled until the person approves that address.
type PendingLocal struct {
	Server    string `json:"server"`
	Source    string `json:"source"` // file:line:col where the server is declared
	Origin    string `json:"origin"` // scheme://host:port it would dial
	Digest    string `json:"digest"`
	AllowFlag string `json:"allow_flag"`
	Grant     string `json:"grant"` // the command that remembers it
}

// PendingBinding is one entry of the envelope's bindings[] list: a secret
// (by name, never its value) that a server's headers would send to an
// origin it is not bound to.
type PendingBinding struct {
	Server    string   `json:"server"`
	Secret    string   `json:"secret"`
	Origin    string   `json:"origin"`
	Headers   []string `json:"headers"`
	Added     []string `json:"added,omitempty"` // headers an earlier grant of it did not name
	Digest    string   `json:"digest"`
	AllowFlag string   `json:"allow_flag"`
}

// StoreProblem is a store failure as envelope data.
type StoreProblem struct {
	Code    fault.Code `json:"code"`
	Message string     `json:"message"`
	Line    int        `json:"line,omitempty"`
	Reason  string     `json:"reason,omitempty"`
}

// ProblemOf renders a store error as data (nil for nil).
func ProblemOf(err error) *StoreProblem {
	if err == nil {
		return nil
	}
	p := &StoreProblem{Code: CodeStoreIO, Message: describeStoreProblem(err)}
	var c interface{ Code() fault.Code }
	if errors.As(err, &c) {
		p.Code = c.Code()
	}
	var fe *FoldError
	if errors.As(err, &fe) {
		p.Line, p.Reason = fe.Line, fe.Reason
	}
	return p
}

// StoreBlocks is the refusal of a write a store that fails closed would
// make pointless (a grant no fold will see) or of a command that must not
// report success on it: the store's own code (E311 for an unparseable line,
// E310/E312 for a refused or unreadable file, E318 for the home), what
// happened, and the store's message, which names the file and line and what
// to do. Its envelope data is {"store_error": …}.
func StoreBlocks(ferr error, what string) error {
	p := ProblemOf(ferr)
	return &Error{ErrCode: p.Code, Msg: what + ": " + p.Message, Data: map[string]any{"store_error": p}}
}

// ErrorData is {"pending":[…], "store_error":…}.
func (e *PendingError) ErrorData() any {
	data := PendingData{Pending: make([]PendingServer, 0, len(e.Pending)), StoreError: ProblemOf(e.Cause)}
	for _, d := range e.Pending {
		r := d.Server
		ps := PendingServer{Server: r.Name, CommandLine: r.CommandLine(), Command: r.Command, Args: r.Args,
			Env: r.Env, Cwd: r.Cwd, Digest: r.Digest, Diff: []Change{}, DiffText: []string{}, Sandbox: r.Sandbox,
			AllowFlag: "--allow-mcp-stdio " + r.Digest}
		if ps.Env == nil {
			ps.Env = []EnvEntry{}
		}
		if d.Diff != nil {
			ps.Diff, ps.DiffText = d.Diff.Changes, d.Diff.Lines()
			if p := d.Diff.Previous; p != nil {
				ps.Previous = &Previous{Digest: p.Digest, CommandLine: p.CommandLine(), Cwd: p.Cwd,
					GrantedAt: p.GrantedAt.UTC().Format(timeLayout)}
			}
		}
		data.Pending = append(data.Pending, ps)
	}
	for _, d := range e.Bindings {
		b := d.Binding
		if b.Helper != nil {
			data.Helpers = append(data.Helpers, PendingHelper{Server: b.Server, Source: b.Source, Line: b.Helper.Line, Shell: b.Helper.Shell,
				Cwd: b.Helper.Cwd, Origin: b.Origin, Digest: b.Digest, AllowFlag: b.AllowFlag(), Grant: "relavium consent grant " + b.Digest})
			continue
		}
		if b.Local {
			data.Local = append(data.Local, PendingLocal{Server: b.Server, Source: b.Source, Origin: b.Origin, Digest: b.Digest,
				AllowFlag: b.AllowFlag(), Grant: "relavium consent grant " + b.Server})
			continue
		}
		data.Bindings = append(data.Bindings, PendingBinding{Server: b.Server, Secret: b.Secret, Origin: b.Origin,
			Headers: b.Headers, Added: d.Added, Digest: b.Digest, AllowFlag: b.AllowFlag()})
	}
	return data
}

// WriteHuman prints, per unapproved server: name, resolved command line, cwd,
// env names with kind, digest, the diff, and the exact flag to pass.
func (e *PendingError) WriteHuman(w io.Writer) error {
	ew := &errWriter{w: w}
	if len(e.Pending) > 0 {
		ew.printf("relavium: consent required (%s): %d stdio server(s) would be spawned and no one can be asked here (no TTY, --json or CI).\n",
			CodeConsentRequired, len(e.Pending))
	}
	secrets, locals, helpers := e.split()
	if len(helpers) > 0 {
		ew.printf("relavium: consent required (%s): %d headers helper(s) would be run before a connect and no one can be asked here (no TTY, --json or CI); nothing was run or dialled.\n",
			CodeConsentRequired, len(helpers))
	}
	if len(secrets) > 0 {
		ew.printf("relavium: secret not bound (%s): %d secret(s) from your stores would be sent to an origin they are not bound to, and no one can be asked here (no TTY, --json or CI); nothing was dialled.\n",
			CodeSecretUnbound, len(secrets))
	}
	if len(locals) > 0 {
		ew.printf("relavium: local address held (%s): %d server(s) of another client's file point at a loopback or private address, which is dialled only on your word, and no one can be asked here (no TTY, --json or CI); nothing was dialled.\n",
			CodeLocalHeld, len(locals))
	}
	if e.Cause != nil {
		ew.printf("relavium: no remembered grant was trusted: %s\n", describeStoreProblem(e.Cause))
	}
	if len(e.Pending) > 0 {
		e.writeStdio(ew)
	}
	if len(secrets) > 0 {
		e.writeBindings(ew, secrets)
	}
	if len(locals) > 0 {
		writeLocals(ew, locals)
	}
	if len(helpers) > 0 {
		writeHelpers(ew, helpers)
	}
	return ew.err
}

// writeHelpers prints, per pending headers helper: the server, what runs,
// where its output goes, the digest and the flag.
func writeHelpers(ew *errWriter, helpers []BindingDecision) {
	writeHeld(ew, helpers, WriteHelperDetails,
		"Review each command above; to run them for one run, add:",
		"or remember one on this machine with: relavium consent grant DIGEST (it asks on a terminal; elsewhere add --yes)")
}

// writeLocals prints, per held local endpoint: the server, where it is
// declared, the address, the digest and the flag.
func writeLocals(ew *errWriter, locals []BindingDecision) {
	writeHeld(ew, locals, WriteLocalDetails,
		"If each address above is your own MCP server, to dial it for one run add:",
		"or remember it on this machine with: relavium consent grant NAME (it asks on a terminal; elsewhere add --yes)")
}

// writeHeld prints each held binding (its server, its details, the flag
// that approves it), then how to approve them all for one run and how to
// remember one.
func writeHeld(ew *errWriter, held []BindingDecision, details func(io.Writer, *Binding, string), once, remember string) {
	var flags []string
	for _, d := range held {
		b := d.Binding
		ew.printf("\n  server   %s\n", quoteArg(b.Server))
		details(ew, b, "  ")
		ew.printf("  approve  %s\n", b.AllowFlag())
		flags = append(flags, b.AllowFlag())
	}
	ew.printf("\n%s\n  %s\n", once, strings.Join(slices.Compact(flags), " "))
	ew.printf("%s\n", remember)
}

// writeBindings prints, per unbound secret: the server, the secret by
// reference, the origin, the header names, the digest and the flag.
func (e *PendingError) writeBindings(ew *errWriter, bindings []BindingDecision) {
	var flags []string
	for _, d := range bindings {
		b := d.Binding
		ew.printf("\n  server   %s\n", quoteArg(b.Server))
		WriteBindingDetails(ew, b, "  ")
		if len(d.Added) > 0 {
			ew.printf("  changed  header(s) %s now carry it; the binding granted earlier did not name them\n", strings.Join(d.Added, ", "))
		}
		ew.printf("  approve  %s\n", b.AllowFlag())
		flags = append(flags, b.AllowFlag())
	}
	ew.printf("\nReview each origin above; to send these secrets there for one run, add:\n  %s\n", strings.Join(slices.Compact(flags), " "))
	ew.printf("or remember one on this machine with: relavium consent grant NAME@ORIGIN (it asks on a terminal; elsewhere add --yes)\n")
}

// writeStdio prints the stdio part of WriteHuman.
func (e *PendingError) writeStdio(ew *errWriter) {
	var flags []string
	for _, d := range e.Pending {
		r := d.Server
		ew.printf("\n  server   %s\n", quoteArg(r.Name))
		WriteServerDetails(ew, r, "  ")
		if d.Diff != nil {
			_ = d.Diff.WriteText(ew, "  ")
		}
		ew.printf("  approve  --allow-mcp-stdio %s\n", r.Digest)
		flags = append(flags, "--allow-mcp-stdio "+r.Digest)
	}
	ew.printf("\nReview each command above; to approve them for one run, add:\n  %s\n", strings.Join(flags, " "))
	if e.Undeclared {
		ew.printf("(not declared in a config or agent file, so it cannot be remembered with consent grant)\n")
	} else {
		ew.printf("or remember one on this machine with: relavium consent grant DIGEST (it asks on a terminal; elsewhere add --yes)\n")
	}
}

// WriteServerDetails writes the command line, cwd, env (names and kinds,
// never values) and digest of r, one labelled line each, for prompts and
// headless output alike.
func WriteServerDetails(w io.Writer, r *Resolved, indent string) {
	fmt.Fprintf(w, "%scommand  %s\n", indent, r.CommandLine())
	fmt.Fprintf(w, "%scwd      %s\n", indent, quoteArg(r.Cwd))
	if len(r.Env) == 0 {
		fmt.Fprintf(w, "%senv      (none declared)\n", indent)
	}
	for i, e := range r.Env {
		label := "env     "
		if i > 0 {
			label = "        "
		}
		fmt.Fprintf(w, "%s%s %s (%s)\n", indent, label, quoteArg(e.Name), e.Describe())
	}
	if f := r.EnvFile; f != nil {
		fmt.Fprintf(w, "%senv file %s\n", indent, EnvFileLine(f))
	}
	WriteSandbox(w, r, indent)
	fmt.Fprintf(w, "%sdigest   %s\n", indent, r.Digest)
}

// WriteSandbox writes r's sandbox policy, one path a line, then the
// network, and "not sandboxed: …" when this machine cannot apply it.
// Nothing for a declaration without a policy.
func WriteSandbox(w io.Writer, r *Resolved, indent string) {
	label := "sandbox  "
	for _, line := range SandboxLines(r) {
		fmt.Fprintf(w, "%s%s%s\n", indent, label, line)
		label = "         "
	}
}

// SandboxLines are r's sandbox as the consent block shows it: "not
// sandboxed: …" first when this machine cannot apply it, then one path a
// line (quoted when it needs to be), then the network. nil without a
// policy.
func SandboxLines(r *Resolved) []string {
	if r.Sandbox == nil {
		return nil
	}
	var out []string
	if st := sandbox.StatusOf(*r.Sandbox, sandbox.Probe()); !st.Sandboxed {
		out = append(out, st.Reason)
	}
	for _, line := range r.Sandbox.Lines() {
		// A path is authored text: shown quoted when it needs to be.
		if kind, path, ok := strings.Cut(line, "   "); ok && strings.HasPrefix(strings.TrimSpace(path), "/") {
			line = kind + "   " + Display(strings.TrimSpace(path))
		} else if kind, path, ok := strings.Cut(line, "  "); ok && strings.HasPrefix(path, "/") {
			line = kind + "  " + Display(path)
		}
		out = append(out, line)
	}
	return out
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, a ...any) { fmt.Fprintf(e, format, a...) }

// EnvFileLine is an env file as a consent prompt shows it: the path and
// the names it sets, never a value.
func EnvFileLine(f *EnvFile) string {
	names := make([]string, len(f.Names))
	for i, n := range f.Names {
		names[i] = quoteArg(n)
	}
	return quoteArg(f.Path) + " sets " + strings.Join(names, ", ") + " (read at spawn; values not shown)"
}
