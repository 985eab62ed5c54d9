package config

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/secrets"
	"github.com/relavium/relavium/invoke/cli"
)

// ConfigSources is the data of `relavium config sources`.
type ConfigSources struct {
	Sources []SourceRow `json:"sources"`
	project string
}

// SourceRow is one file servers can come from.
type SourceRow struct {
	// Kind is relavium (its own config files), project (a client file beside
	// .relavium/) or global (a client file in the person's home, read only
	// with --config).
	Kind   string `json:"kind"`
	Client string `json:"client,omitempty"`
	File   string `json:"file"`
	// State is used, offered (found, not used), found (global, not used),
	// absent, or invalid (found; `--config FILE` or `config validate` name
	// its problems).
	State    string                `json:"state"`
	Servers  []config.OfferedEntry `json:"servers"`
	Problems int                   `json:"problems,omitempty"`
	// Held are the servers of a used client file whose loopback or
	// private address waits for the person's word (config.Server.LocalHeld):
	// admitted, not failed, dialled once approved.
	Held []HeldServer `json:"held,omitempty"`
}

// HeldServer is one server held for the person's word on its address.
type HeldServer struct {
	Name   string `json:"name"`
	Origin string `json:"origin"`
}

// RunConfigSources is `relavium config sources`: list every file servers can
// come from: relavium's, the project's client files, the global client
// files.
func RunConfigSources(_ context.Context, inv *cli.Invocation) (any, error) {
	out := &ConfigSources{Sources: []SourceRow{}, project: inv.Global.Project}
	used := map[string]bool{}
	held := map[string][]HeldServer{}
	cfg, err := inv.LoadConfig()
	if err == nil {
		for _, f := range cfg.Files {
			used[f] = true
		}
		for _, s := range cfg.Servers {
			if origin, oerr := consent.Origin(s.URL); s.LocalHeld && oerr == nil {
				held[s.Pos.File] = append(held[s.Pos.File], HeldServer{Name: s.Name, Origin: origin})
			}
		}
	}
	for _, f := range []string{config.GlobalFile(inv.Env.Home), config.ProjectFile(inv.Global.Project)} {
		row := SourceRow{Kind: "relavium", File: f, State: "absent", Servers: []config.OfferedEntry{}}
		if _, serr := os.Stat(f); serr == nil {
			row.State = "used"
			if len(inv.Global.Config) > 0 {
				row.State = "found" // --config reads its files instead
			}
		}
		out.Sources = append(out.Sources, row)
	}
	files := config.ClientFiles(inv.Global.Project, inv.Env.UserHome, runtime.GOOS, inv.Env.Getenv("APPDATA"))
	for _, f := range inv.Global.Config {
		if !slices.ContainsFunc(files, func(c config.ClientFile) bool { return c.Path == f }) {
			files = append(files, config.ClientFile{Client: "--config", Path: f, Global: true})
		}
	}
	for _, cf := range files {
		kind := "project"
		if cf.Global {
			kind = "global"
		}
		offer, problems, ok := config.Survey(cf.Path, inv.Global.Project)
		row := SourceRow{Kind: kind, Client: cf.Client, File: cf.Path, State: "absent", Servers: offer.Servers, Problems: problems}
		switch {
		case !ok:
		case used[cf.Path]:
			row.State, row.Held = "used", held[cf.Path]
		case problems > 0:
			row.State = "invalid"
		case cf.Global:
			row.State = "found"
		default:
			row.State = "offered"
		}
		out.Sources = append(out.Sources, row)
	}
	return out, nil
}

// WriteHuman prints one line a file, grouped by kind.
func (c *ConfigSources) WriteHuman(w io.Writer) error {
	var b strings.Builder
	titles := map[string]string{
		"relavium": "RELAVIUM",
		"project":  "PROJECT (beside .relavium/: used when the project has no config.toml, or when it lists them in import = [...])",
		"global":   "GLOBAL (read only when named: relavium --config FILE …)",
	}
	kind := ""
	for _, r := range c.Sources {
		if r.Kind != kind {
			kind = r.Kind
			b.WriteString(titles[kind] + "\n")
		}
		fmt.Fprintf(&b, "  %-8s %s", r.State, sanitize.Line(cli.RelPath(c.project, r.File)))
		if r.Client != "" {
			fmt.Fprintf(&b, "  (%s)", r.Client)
		}
		if n := len(r.Servers); n > 0 {
			names := make([]string, n)
			for i, s := range r.Servers {
				names[i] = fmt.Sprintf("%s:%d", sanitize.Line(s.Name), s.Pos.Line)
			}
			fmt.Fprintf(&b, "  %s", strings.Join(names, ", "))
		}
		if r.Problems > 0 {
			fmt.Fprintf(&b, "  %s", cfgPlural(r.Problems, "problem"))
		}
		b.WriteString("\n")
		for _, h := range r.Held {
			fmt.Fprintf(&b, "    held     %s at %s: a local address, dialled once you approve it (asked in the workbench; --allow-local %s, or relavium consent grant %s)\n",
				sanitize.Line(h.Name), sanitize.Line(h.Origin), sanitize.Line(h.Name), sanitize.Line(h.Name))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ConfigImport is the data of `relavium config import`.
type ConfigImport struct {
	File    string   `json:"file"`
	Servers []string `json:"servers"`
	// TOML is the registrations, header values that hold no secret
	// reference withheld; Written is the config file they were added to.
	TOML    string `json:"toml"`
	Written string `json:"written,omitempty"`
	// Moved are the literal credentials --write moved to the person's
	// secret store (never their values).
	Moved []MovedSecret `json:"moved_secrets,omitempty"`
	// Failed are the file's servers that were not imported, each with its
	// problems (one bad entry never sinks the rest).
	Failed []config.FailedServer `json:"failed,omitempty"`
}

// MovedSecret is one literal credential config import --write found in a
// client's file and kept in the person's secret store instead of the
// project's config, which names it {{secrets.NAME}}.
type MovedSecret struct {
	Server string `json:"server"`
	Field  string `json:"field"`  // env.NAME or headers.NAME
	Secret string `json:"secret"` // the NAME of {{secrets.NAME}}
	Store  string `json:"store"`  // the file it is kept in
}

// WriteHuman prints the TOML, or where it was written.
func (c *ConfigImport) WriteHuman(w io.Writer) error {
	if c.Written != "" {
		_, err := fmt.Fprintf(w, "%s added to %s\n", cfgPlural(len(c.Servers), "server"), c.Written)
		return err
	}
	_, err := io.WriteString(w, c.TOML)
	return err
}

// RunConfigImport is `relavium config import`: print another client's MCP
// file as [[mcp_servers]] TOML (--write: add it to .relavium/config.toml).
func RunConfigImport(_ context.Context, inv *cli.Invocation) (any, error) {
	file := inv.Args[0]
	if !filepath.IsAbs(file) {
		file = filepath.Join(inv.Env.WorkDir, file)
	}
	project := inv.Global.Project
	imp, err := config.LoadFrom(inv.Env.Home, project, config.Sources{Files: []string{file}, AllowLocal: inv.Global.AllowLocal, LookupEnv: inv.Env.LookupEnv})
	if err != nil {
		return nil, err
	}
	for _, name := range inv.Global.AllowLocal {
		known := false
		for _, s := range imp.Servers {
			known = known || s.Name == name || s.Import != nil && s.Import.Written == name
		}
		for _, f := range imp.Failed {
			known = known || f.Name == name || f.Written == name
		}
		if !known {
			return nil, cli.UsageErr(cli.CodeBadFlag, "--allow-local %s names no server of %s", sanitize.Line(name), file)
		}
	}
	for _, w := range imp.Warnings {
		fmt.Fprintln(inv.Env.Stderr, cli.ProblemLine(project, w))
	}
	var held []config.FailedServer
	imp.Servers, held = config.Writable(imp.Servers, file)
	imp.Failed = append(imp.Failed, held...)
	// The servers that cannot be imported are reported, each with its
	// problems; the others are imported.
	for _, f := range imp.Failed {
		fmt.Fprintf(inv.Env.Stderr, "relavium: not imported: %s (%s)\n", sanitize.Line(f.Written), f.Code())
		for _, p := range f.Problems {
			fmt.Fprintln(inv.Env.Stderr, "  "+sanitize.Line(cli.ProblemLine(project, p)))
		}
	}
	if len(imp.Servers) == 0 {
		if len(imp.Failed) > 0 {
			return nil, cli.UsageErr(cli.CodeImportEmpty, "%s declares no server relavium can import: %s refused (above)", file, cfgPlural(len(imp.Failed), "server"))
		}
		return nil, cli.UsageErr(cli.CodeImportEmpty, "%s declares no server relavium can import", file)
	}
	out := &ConfigImport{File: file, Servers: []string{}, TOML: config.TOML(imp.Servers, project, true), Failed: imp.Failed}
	for _, s := range imp.Servers {
		out.Servers = append(out.Servers, s.Name)
	}
	if !inv.Bool("write") {
		return out, nil
	}
	target := config.ProjectFile(project)
	_, statErr := os.Stat(target)
	existed := statErr == nil
	cfg, err := checkNamesFree(inv, file, existed, imp.Servers)
	if err != nil {
		return nil, err
	}
	old, err := os.ReadFile(target)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, cli.WrapErr(cli.CodeImportWrite, err, "cannot read %s", target)
	}
	body := string(old)
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	if body != "" {
		body += "\n"
	}
	servers, moved, err := moveLiteralSecrets(inv.Env.Home, imp.Servers)
	if err != nil {
		return nil, err
	}
	out.Moved = moved
	for _, m := range moved {
		fmt.Fprintf(inv.Env.Stderr, "relavium: note: server %s: %s held a literal secret; it is kept in %s as %s, and %s says {{secrets.%s}} (the project's config holds no credential)\n",
			m.Server, m.Field, m.Store, m.Secret, cli.RelPath(project, target), m.Secret)
	}
	body += config.TOML(servers, project, false)
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return nil, cli.WrapErr(cli.CodeImportWrite, err, "cannot create %s", filepath.Dir(target))
	}
	if err := atomicfile.Write(target, []byte(body)); err != nil {
		return nil, cli.WrapErr(cli.CodeImportWrite, err, "cannot write %s (left as it was)", target)
	}
	out.Written = target
	if !existed { // the project's client files were used for want of a config.toml: no longer
		for _, f := range cfg.Files {
			if f != file && filepath.Ext(f) == ".json" {
				fmt.Fprintf(inv.Env.Stderr, "relavium: note: %s is no longer used now that %s exists; add import = [%q] to it to keep its servers\n",
					cli.RelPath(project, f), cli.RelPath(project, target), cli.RelPath(project, f))
			}
		}
	}
	return out, nil
}

// checkNamesFree refuses an import whose names the configuration already
// registers (every source it reads, imports included), naming both places.
// A server of the imported file itself, used only because the project has
// no config.toml yet, is the same server, moving.
func checkNamesFree(inv *cli.Invocation, file string, existed bool, servers []config.Server) (*config.Config, error) {
	cfg, err := config.LoadFrom(inv.Env.Home, inv.Global.Project, config.Sources{LookupEnv: inv.Env.LookupEnv})
	if err != nil {
		return nil, err
	}
	for _, s := range servers {
		for _, have := range cfg.Servers {
			if have.Pos.File == file && !existed {
				continue
			}
			if strings.EqualFold(have.Name, s.Name) {
				return nil, cli.UsageErr(cli.CodeImportTaken, "server %q (%s) is already registered at %s: rename one of them (or drop the file from import = [...] when it is the same server) before --write",
					s.Name, s.Pos, have.Pos)
			}
		}
	}
	return cfg, nil
}

// moveLiteralSecrets returns servers with every literal credential (the
// rule export refuses by: config.EnvLiteralSecret, HeaderLiteralSecret)
// moved to the person's secret store and replaced by {{secrets.NAME}}:
// the project's config, which is committed and shared, never holds one.
// The name is <server>-<field name>, lower-cased; a name the store already
// holds with another value is E882 and nothing is written.
func moveLiteralSecrets(home string, servers []config.Server) ([]config.Server, []MovedSecret, error) {
	out := make([]config.Server, len(servers))
	var moved []MovedSecret
	keep := func(s config.Server, field, name, value string) (string, error) {
		secret := importSecretName(s.Name + "-" + name)
		store, _, err := secrets.AddFileSecret(home, secret, value)
		if errors.Is(err, secrets.ErrSecretTaken) {
			return "", cli.UsageErr(cli.CodeImportSecret, "server %s: %s holds a literal secret, and the secret store already holds another value as %s: remove or rename that one (relavium never overwrites a secret), then import again", s.Name, field, secret)
		}
		if err != nil {
			return "", cli.WrapErr(cli.CodeImportSecret, err, "server %s: %s holds a literal secret, which could not be moved to the secret store (the project's config was not written)", s.Name, field)
		}
		moved = append(moved, MovedSecret{Server: s.Name, Field: field, Secret: secret, Store: store})
		return "{{secrets." + secret + "}}", nil
	}
	for i, s := range servers {
		s.Env = slices.Clone(s.Env)
		for j, e := range s.Env {
			if config.EnvLiteralSecret(e.Name, e.Value) {
				ref, err := keep(s, "env."+e.Name, e.Name, e.Value)
				if err != nil {
					return nil, nil, err
				}
				s.Env[j].Value = ref
			}
		}
		s.Headers = slices.Clone(s.Headers)
		for j, h := range s.Headers {
			if config.HeaderLiteralSecret(h.Value) {
				ref, err := keep(s, "headers."+h.Name, h.Name, h.Value)
				if err != nil {
					return nil, nil, err
				}
				s.Headers[j].Value = ref
			}
		}
		out[i] = s
	}
	return out, moved, nil
}

// importSecretName is a {{secrets.NAME}} name for s: lower-cased, every
// character a name may not hold as '-'.
func importSecretName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '.', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, s)
}
