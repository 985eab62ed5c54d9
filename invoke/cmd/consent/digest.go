package consent

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/sandbox"
	"github.com/relavium/relavium/session"
)

// ConsentDigests is the data of `relavium consent digest`: every declared
// stdio server with the digest a CI author passes to --allow-mcp-stdio.
type ConsentDigests struct {
	Servers []ConsentDigestRow `json:"servers"`
	// Bindings are the secrets declared network servers' headers would
	// send, each with the digest and the --allow-secret flag that binds it.
	Bindings []ConsentBindingRow `json:"bindings"`
	// Local are the servers of another client's file held for the
	// person's word on their loopback or private address, each with the
	// digest and the --allow-local flag that opens it.
	Local []ConsentLocalRow `json:"local_endpoints,omitempty"`
	// Helpers are the declared network servers' headers helpers, each
	// with the digest and the --allow-mcp-stdio flag that runs it.
	Helpers    []ConsentHelperRow    `json:"headers_helpers,omitempty"`
	StoreError *consent.StoreProblem `json:"store_error,omitempty"`
}

// ConsentHelperRow is one declared headers helper.
type ConsentHelperRow struct {
	Server    string `json:"server"`
	Source    string `json:"source"`
	Line      string `json:"line"`
	Shell     string `json:"shell"`
	Cwd       string `json:"cwd"`
	Origin    string `json:"origin"`
	Digest    string `json:"digest"`
	Granted   bool   `json:"granted"`
	AllowFlag string `json:"allow_flag"`
}

// ConsentLocalRow is one held local address.
type ConsentLocalRow struct {
	Server    string `json:"server"`
	Source    string `json:"source"`
	Origin    string `json:"origin"`
	Digest    string `json:"digest"`
	Granted   bool   `json:"granted"`
	AllowFlag string `json:"allow_flag"`
}

// ConsentBindingRow is one secret a declared network server's headers
// would send to its origin.
type ConsentBindingRow struct {
	Server    string   `json:"server"`
	Secret    string   `json:"secret"`
	Origin    string   `json:"origin"`
	Headers   []string `json:"headers"`
	Digest    string   `json:"digest"`
	Granted   bool     `json:"granted"`
	AllowFlag string   `json:"allow_flag"`
}

// ConsentDigestRow is one resolved stdio server.
type ConsentDigestRow struct {
	Server      string             `json:"server"`
	Digest      string             `json:"digest"`
	CommandLine string             `json:"command_line"`
	Command     string             `json:"command"`
	Args        []string           `json:"args"`
	Env         []consent.EnvEntry `json:"env"`
	Cwd         string             `json:"cwd"`
	Granted     bool               `json:"granted"`
	AllowFlag   string             `json:"allow_flag"`
	Source      config.Pos         `json:"source"`
	// Sandbox is the policy the digest covers (docs/sandbox.md).
	Sandbox *sandbox.Policy `json:"sandbox,omitempty"`
}

// WriteHuman prints one block per server.
func (d ConsentDigests) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if len(d.Servers) == 0 {
		b.WriteString("no stdio server is declared\n")
	}
	for _, s := range d.Servers {
		state := "not granted"
		if s.Granted {
			state = "granted"
		}
		fmt.Fprintf(&b, "%s  %s  %s\n", consent.Display(s.Server), s.Digest, state)
		fmt.Fprintf(&b, "  command  %s\n", s.CommandLine)
		fmt.Fprintf(&b, "  cwd      %s\n", consent.Display(s.Cwd))
		if s.Sandbox != nil {
			fmt.Fprintf(&b, "  sandbox  %s\n", s.Sandbox.Mode())
		}
	}
	for _, r := range d.Bindings {
		state := "not bound"
		if r.Granted {
			state = "bound"
		}
		fmt.Fprintf(&b, "%s  %s  %s\n", consent.Display(r.Server), r.Digest, state)
		fmt.Fprintf(&b, "  secret   %s → %s (headers %s)\n  approve  %s\n", consent.BindingRef(r.Secret), consent.Display(r.Origin),
			consent.Display(strings.Join(r.Headers, ", ")), r.AllowFlag)
	}
	for _, r := range d.Local {
		state := "not granted"
		if r.Granted {
			state = "granted"
		}
		fmt.Fprintf(&b, "%s  %s  %s\n  address  %s (local, from %s)\n  approve  %s\n", consent.Display(r.Server), r.Digest, state,
			consent.Display(r.Origin), consent.Display(r.Source), r.AllowFlag)
	}
	for _, r := range d.Helpers {
		state := "not granted"
		if r.Granted {
			state = "granted"
		}
		fmt.Fprintf(&b, "%s  %s  %s\n  helper   %s -c %s (headers to %s)\n  approve  %s\n", consent.Display(r.Server), r.Digest, state,
			consent.Display(r.Shell), consent.Display(r.Line), consent.Display(r.Origin), r.AllowFlag)
	}
	if d.StoreError != nil {
		fmt.Fprintf(&b, "grant store unreadable (%s): %s\n", d.StoreError.Code, d.StoreError.Message)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RunConsentDigest is `relavium consent digest`: print every declared stdio
// server's consent digest (for CI).
func RunConsentDigest(_ context.Context, inv *cli.Invocation) (any, error) {
	rows, err := consentResolveAll(inv)
	if err != nil {
		return nil, err
	}
	grants, ferr := consent.Open(inv.Env.Home).Fold()
	out := ConsentDigests{Servers: []ConsentDigestRow{}, StoreError: consent.ProblemOf(ferr)}
	for _, row := range rows {
		if row.err != nil {
			return nil, consentResolveError(rows)
		}
		r := row.resolved
		env := r.Env
		if env == nil {
			env = []consent.EnvEntry{}
		}
		out.Servers = append(out.Servers, ConsentDigestRow{Server: r.Name, Digest: r.Digest, CommandLine: r.CommandLine(),
			Command: r.Command, Args: r.Args, Env: env, Cwd: r.Cwd, Granted: grants.Has(r.Digest),
			AllowFlag: "--allow-mcp-stdio " + r.Digest, Source: row.server.Pos, Sandbox: r.Sandbox})
	}
	out.Bindings = []ConsentBindingRow{}
	if cfg, err := inv.LoadConfig(); err == nil {
		if servers, err := cfg.Declared(inv.Global.Agent); err == nil {
			for _, b := range session.BindingsOf(servers, inv.Env.LookupEnv) {
				g, ok := grants.Get(b.Digest)
				if b.Helper != nil {
					out.Helpers = append(out.Helpers, ConsentHelperRow{Server: b.Server, Source: b.Source, Line: b.Helper.Line, Shell: b.Helper.Shell,
						Cwd: b.Helper.Cwd, Origin: b.Origin, Digest: b.Digest, Granted: ok, AllowFlag: b.AllowFlag()})
					continue
				}
				if b.Local {
					out.Local = append(out.Local, ConsentLocalRow{Server: b.Server, Source: b.Source, Origin: b.Origin, Digest: b.Digest,
						Granted: ok, AllowFlag: b.AllowFlag()})
					continue
				}
				out.Bindings = append(out.Bindings, ConsentBindingRow{Server: b.Server, Secret: b.Secret, Origin: b.Origin, Headers: b.Headers,
					Digest: b.Digest, Granted: ok && !slices.ContainsFunc(b.Headers, func(h string) bool { return !slices.Contains(g.Headers, h) }),
					AllowFlag: b.AllowFlag()})
			}
		}
	}
	return out, nil
}
