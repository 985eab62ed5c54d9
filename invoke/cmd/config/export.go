package config

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/secrets"
	"github.com/relavium/relavium/invoke/cli"
)

// ConfigExport is the data of `relavium config export`: the entry another
// client reads, as a whole file of that client's shape.
type ConfigExport struct {
	Server string `json:"server"`
	Format string `json:"format"`
	// File is the client file's text (one server in it).
	File string `json:"file"`
	// Notes say what the other client needs to find what relavium found
	// (the environment variables its references read).
	Notes []string `json:"notes,omitempty"`
}

// WriteHuman prints the file's text on stdout and the notes on stderr's
// behalf (they follow the text, each marked).
func (c *ConfigExport) WriteHuman(w io.Writer) error {
	_, err := io.WriteString(w, c.File)
	return err
}

// exportEntry is one server in a client's file (fields in the order the
// clients' documentation writes them).
type exportEntry struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	EnvFile string            `json:"envFile,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// HeadersHelper is Claude Code's headersHelper (a claude file only).
	HeadersHelper string `json:"headersHelper,omitempty"`
}

type exportInput struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	Description string `json:"description"`
	Password    bool   `json:"password"`
}

// exporter spells relavium's references the other client's way.
type exporter struct {
	format, server string
	inputs         []exportInput
	notes          []string
}

// RunConfigExport is `relavium config export`: print a declared server as
// another client's MCP file entry.
func RunConfigExport(_ context.Context, inv *cli.Invocation) (any, error) {
	cfg, err := inv.LoadConfig()
	if err != nil {
		return nil, err
	}
	name := inv.Args[0]
	var s *config.Server
	for i := range cfg.Servers {
		if strings.EqualFold(cfg.Servers[i].Name, name) {
			s = &cfg.Servers[i]
		}
	}
	if s == nil {
		names := make([]string, len(cfg.Servers))
		for i, r := range cfg.Servers {
			names[i] = r.Name
		}
		return nil, cli.UsageErr(cli.CodeExportServer, "no declared server %q (declared: %s)", name, strings.Join(names, ", "))
	}
	x := &exporter{format: inv.String("format"), server: s.Name}
	entry, err := x.entry(*s, inv.Global.Project)
	if err != nil {
		return nil, err
	}
	var doc any
	if x.format == "vscode" {
		doc = struct {
			Inputs  []exportInput          `json:"inputs,omitempty"`
			Servers map[string]exportEntry `json:"servers"`
		}{x.inputs, map[string]exportEntry{s.Name: entry}}
	} else {
		doc = struct {
			MCPServers map[string]exportEntry `json:"mcpServers"`
		}{map[string]exportEntry{s.Name: entry}}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	for _, n := range x.notes {
		fmt.Fprintln(inv.Env.Stderr, "relavium: note: "+n)
	}
	return &ConfigExport{Server: s.Name, Format: x.format, File: string(b) + "\n", Notes: x.notes}, nil
}

func (x *exporter) refuse(format string, a ...any) error {
	return cli.UsageErr(cli.CodeExportValue, "server %s: "+format, append([]any{x.server}, a...)...)
}

func (x *exporter) entry(s config.Server, project string) (exportEntry, error) {
	var e exportEntry
	u, err := x.spell("url", s.URL) // a url's references as the other client spells them
	if err != nil {
		return e, err
	}
	e.URL = u
	command, err := x.spell("command", s.Command)
	if err != nil {
		return e, err
	}
	e.Command = command
	for i, a := range s.Args {
		v, err := x.spell(fmt.Sprintf("argument %d", i+1), a)
		if err != nil {
			return e, err
		}
		e.Args = append(e.Args, v)
	}
	if s.EnvFile != "" {
		if x.format == "claude" {
			return e, x.refuse("its env_file (%s) has no counterpart in a claude file", s.EnvFile)
		}
		f, err := x.spell("env_file", s.EnvFile)
		if err != nil {
			return e, err
		}
		e.EnvFile = f
		if rel, err := filepath.Rel(project, s.EnvFile); err == nil && !strings.HasPrefix(rel, "..") && x.format == "vscode" {
			e.EnvFile = "${workspaceFolder}/" + filepath.ToSlash(rel)
		}
	}
	switch s.Transport {
	case host.TransportWebsocket:
		return e, x.refuse("transport websocket has no counterpart in a %s file", x.format)
	case host.TransportStdio:
		if x.format != "cursor" {
			e.Type = "stdio"
		}
	default:
		e.Type = s.Transport
	}
	if s.Transport == host.TransportStdio && s.Dir != project {
		if x.format != "vscode" {
			return e, x.refuse("its cwd (%s) has no counterpart in a %s file, whose servers run where the client starts them", s.Dir, x.format)
		}
		cwd, err := x.spell("cwd", s.Dir)
		if err != nil {
			return e, err
		}
		e.Cwd = cwd
		if rel, err := filepath.Rel(project, s.Dir); err == nil && !strings.HasPrefix(rel, "..") {
			e.Cwd = "${workspaceFolder}/" + filepath.ToSlash(rel)
		}
	}
	if len(s.Env) > 0 {
		e.Env = map[string]string{}
	}
	for _, v := range s.Env {
		val, err := x.envValue(v.Name, v.Value)
		if err != nil {
			return e, err
		}
		e.Env[v.Name] = val
	}
	if len(s.Headers) > 0 {
		e.Headers = map[string]string{}
	}
	for _, h := range s.Headers {
		val, err := x.headerValue(h)
		if err != nil {
			return e, err
		}
		e.Headers[h.Name] = val
	}
	if s.HeadersHelper != "" {
		if x.format != "claude" {
			return e, x.refuse("headers_helper has no counterpart in a %s file (only Claude Code runs a headersHelper)", x.format)
		}
		line, err := x.spell("headers_helper", s.HeadersHelper)
		if err != nil {
			return e, err
		}
		e.HeadersHelper = line
	}
	return e, nil
}

// envValue spells one env value the other client's way: a secret as the
// variable relavium reads it from (or a VS Code input), an {{env.VAR}} as
// that client's own reference. A literal under a name that says secret is
// refused: it would be printed.
func (x *exporter) envValue(name, value string) (string, error) {
	kind, ref, def, hasDef := config.EnvReference(value)
	switch kind {
	case "secret":
		return x.secret(ref), nil
	case "env":
		switch {
		case x.format == "claude" && hasDef:
			return "${" + ref + ":-" + def + "}", nil
		case x.format == "claude":
			return "${" + ref + "}", nil
		case hasDef:
			return "", x.refuse("env %s has a default ({{env.%s:-…}}), which a %s file cannot write", name, ref, x.format)
		}
		return "${env:" + ref + "}", nil
	}
	if spans, ok := consent.RefsIn(value); ok && len(spans) > 0 {
		return x.spell("env "+name, value)
	}
	if config.EnvLiteralSecret(name, value) {
		return "", x.refuse("env %s holds a literal value under a name that says secret, which export never prints: make it {{secrets.NAME}} first", name)
	}
	return value, nil
}

// spell writes text with each reference inside it ({{env.…}},
// {{secrets.…}}, whole or inside text, "{{env.HOME}}/state") spelled the
// other client's way; text with none, or with a brace pair relavium
// passes as written, is returned as it is.
func (x *exporter) spell(what, text string) (string, error) {
	spans, ok := consent.RefsIn(text)
	if !ok || len(spans) == 0 {
		return text, nil
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		v, err := x.textRef(what, text[sp.Start:sp.End])
		if err != nil {
			return "", err
		}
		b.WriteString(text[last:sp.Start])
		b.WriteString(v)
		last = sp.End
	}
	b.WriteString(text[last:])
	return b.String(), nil
}

// textRef spells one reference found inside text ({{env.…}} or
// {{secrets.…}}) the other client's way, as a whole env value would be.
func (x *exporter) textRef(what, ref string) (string, error) {
	if name, ok := consent.SecretRef(ref); ok {
		return x.secret(name), nil
	}
	return x.envValue(what, ref)
}

// headerValue spells each {{secrets.NAME}} inside a header value, split by
// consent.SecretTemplate (the one reading of a header value); a value with
// no secret reference is a literal credential, never printed.
func (x *exporter) headerValue(h config.Header) (string, error) {
	if config.HeaderLiteralSecret(h.Value) {
		return "", x.refuse("header %s holds a literal value, which relavium treats as a credential and never prints: make it \"…{{secrets.NAME}}…\" first", h.Name)
	}
	literals, refs, _ := consent.SecretTemplate(h.Value)
	var b strings.Builder
	for i, ref := range refs {
		b.WriteString(literals[i])
		if v, isEnv := strings.CutPrefix(ref, consent.EnvBindingPrefix); isEnv {
			s, err := x.envValue("header "+h.Name, "{{env."+v+"}}")
			if err != nil {
				return "", err
			}
			b.WriteString(s)
			continue
		}
		b.WriteString(x.secret(ref))
	}
	b.WriteString(literals[len(refs)])
	return b.String(), nil
}

// secret is a relavium secret in the other client's spelling: VS Code asks
// for it (an input); Claude and Cursor read the variable relavium reads.
func (x *exporter) secret(name string) string {
	if x.format == "vscode" {
		for _, in := range x.inputs {
			if in.ID == name {
				return "${input:" + name + "}"
			}
		}
		x.inputs = append(x.inputs, exportInput{Type: "promptString", ID: name, Description: "relavium secret " + name, Password: true})
		return "${input:" + name + "}"
	}
	v := secrets.EnvSecretName(name)
	x.notes = append(x.notes, fmt.Sprintf("{{secrets.%s}} is read from %s in the environment the client runs in", name, v))
	if x.format == "cursor" {
		return "${env:" + v + "}"
	}
	return "${" + v + "}"
}
