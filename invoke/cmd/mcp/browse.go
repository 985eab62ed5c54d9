package mcp

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/invoke/cli"
)

// mcp prompts, mcp resources and mcp prompt: what a server offers besides
// tools, headless, on the declared servers or one ad-hoc --url/--stdio
// server. A server that does not declare prompts (resources) lists none;
// one that declares a list but answers it -32601 lists it as not offered.

// AdhocFlags are the ad-hoc target flags of mcp ls, shared by these commands.
func AdhocFlags() []cli.Flag {
	return []cli.Flag{
		{Name: "url", Type: cli.String, Usage: "ad-hoc target: one unnamed server at this url"},
		{Name: "header", Type: cli.StringArray, Usage: "a request header 'Name: value' for --url (repeatable; {{secrets.NAME}} resolved; the value is never shown)"},
		{Name: "stdio", Type: cli.String, Usage: "ad-hoc target: one unnamed stdio server, command line split on spaces (no shell)"},
		{Name: "allow-local-endpoint", Type: cli.Bool, Usage: "allow a loopback/private --url"},
		ProtocolFlag(),
	}
}

// ServerPrompts is one server's prompts.
type ServerPrompts struct {
	Server     string        `json:"server"`
	Offered    bool          `json:"offered"` // capabilities.prompts declared
	NotOffered bool          `json:"not_offered,omitempty"`
	Prompts    []host.Prompt `json:"prompts"`
}

// MCPPrompts is the data of `relavium mcp prompts`.
type MCPPrompts struct {
	Servers []ServerPrompts `json:"servers"`
}

// WriteHuman prints each server's prompts with their arguments (a * marks
// a required one); server text is sanitized and labelled as external.
func (r *MCPPrompts) WriteHuman(w io.Writer) error {
	var b strings.Builder
	for _, s := range r.Servers {
		fmt.Fprintf(&b, "SERVER %s\n", sanitize.Line(s.Server))
		switch {
		case !s.Offered:
			b.WriteString("  (does not offer prompts)\n")
			continue
		case s.NotOffered:
			b.WriteString("  (declares prompts but answers prompts/list \"method not found\": not offered)\n")
			continue
		case len(s.Prompts) == 0:
			b.WriteString("  (no prompts)\n")
			continue
		}
		b.WriteString(indent(sanitize.LabelExternal(s.Server, ""), "  "))
		for _, p := range s.Prompts {
			var args []string
			for _, a := range p.Arguments {
				n := sanitize.Line(a.Name)
				if a.Required {
					n += "*"
				}
				args = append(args, n)
			}
			fmt.Fprintf(&b, "  %s(%s)\n", sanitize.Line(p.Name), strings.Join(args, ", "))
			if d := firstNonEmpty(p.Title, p.Description); d != "" {
				fmt.Fprintf(&b, "      %s\n", sanitize.Line(d))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ServerResources is one server's resources and templates.
type ServerResources struct {
	Server string `json:"server"`
	*host.ResourceList
}

// MCPResources is the data of `relavium mcp resources`.
type MCPResources struct {
	Servers []ServerResources `json:"servers"`
}

// WriteHuman prints each server's resources, then its templates.
func (r *MCPResources) WriteHuman(w io.Writer) error {
	var b strings.Builder
	for _, s := range r.Servers {
		fmt.Fprintf(&b, "SERVER %s\n", sanitize.Line(s.Server))
		if !s.Offered {
			b.WriteString("  (does not offer resources)\n")
			continue
		}
		b.WriteString(indent(sanitize.LabelExternal(s.Server, ""), "  "))
		b.WriteString("  RESOURCES\n")
		if len(s.Resources) == 0 {
			b.WriteString("    (none)\n")
		}
		for _, x := range s.Resources {
			fmt.Fprintf(&b, "    %s  %s", sanitize.Line(x.URI), sanitize.Line(firstNonEmpty(x.Title, x.Name)))
			if x.MIMEType != "" {
				fmt.Fprintf(&b, "  %s", sanitize.Line(x.MIMEType))
			}
			b.WriteByte('\n')
		}
		b.WriteString("  TEMPLATES\n")
		if len(s.Templates) == 0 {
			b.WriteString("    (none)\n")
		}
		for _, x := range s.Templates {
			fmt.Fprintf(&b, "    %s  %s\n", sanitize.Line(x.URITemplate), sanitize.Line(firstNonEmpty(x.Title, x.Name)))
		}
		for _, m := range s.NotOffered {
			fmt.Fprintf(&b, "  %s: not offered (the server answered \"method not found\")\n", m)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// indent prefixes every line of s.
func indent(s, pre string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return pre + strings.ReplaceAll(s, "\n", "\n"+pre) + "\n"
}

// browseTargets connects what a browse command names: SERVER (a declared
// one) or every declared server, or the one ad-hoc server.
func browseTargets(ctx context.Context, inv *cli.Invocation, server string) (*host.Host, []string, error) {
	servers, adhoc, err := Targets(inv)
	if err != nil {
		return nil, nil, err
	}
	if server != "" {
		if adhoc {
			return nil, nil, cli.UsageErr(cli.CodeBadTarget, "give SERVER or an ad-hoc --url/--stdio, not both")
		}
		if servers, err = declaredOne(servers, server); err != nil {
			return nil, nil, err
		}
	}
	if len(servers) == 0 {
		return nil, nil, nil
	}
	h, err := cli.ConnectWith(ctx, inv, servers, nil, cli.ConnectOptions{})
	if err != nil {
		return nil, nil, err
	}
	var names []string
	for _, st := range h.Servers() {
		names = append(names, st.Name)
	}
	return h, names, nil
}

// declaredOne is the declared server named name (E930 otherwise).
func declaredOne(servers []config.Server, name string) ([]config.Server, error) {
	var names []string
	for _, s := range servers {
		if s.Name == name {
			return []config.Server{s}, nil
		}
		names = append(names, s.Name)
	}
	return nil, cli.UsageErr(cli.CodeNoSuchServer, "no declared server is named %s (declared: %s)", sanitize.Line(name), firstNonEmpty(strings.Join(names, ", "), "none"))
}

func firstArg(inv *cli.Invocation) string {
	if len(inv.Args) > 0 {
		return inv.Args[0]
	}
	return ""
}

// RunMCPPrompts is `relavium mcp prompts`: list the prompts of every
// declared server (or SERVER, or one ad-hoc server), with their arguments.
func RunMCPPrompts(ctx context.Context, inv *cli.Invocation) (any, error) {
	h, names, err := browseTargets(ctx, inv, firstArg(inv))
	out := &MCPPrompts{Servers: []ServerPrompts{}}
	if err != nil || h == nil {
		return out, err
	}
	defer h.Close()
	for _, name := range names {
		ps, err := h.Prompts(ctx, name)
		if err != nil {
			return nil, err
		}
		defs, _ := h.Definitions(name)
		sp := ServerPrompts{Server: name, Prompts: ps}
		if defs != nil {
			sp.Offered = strings.Contains(string(defs.Capabilities), `"prompts"`)
			for _, m := range defs.NotOffered {
				sp.NotOffered = sp.NotOffered || m == "prompts/list"
			}
		}
		out.Servers = append(out.Servers, sp)
	}
	return out, nil
}

// RunMCPResources is `relavium mcp resources`: list the resources and
// resource templates of every declared server (or SERVER, or one ad-hoc
// server).
func RunMCPResources(ctx context.Context, inv *cli.Invocation) (any, error) {
	h, names, err := browseTargets(ctx, inv, firstArg(inv))
	out := &MCPResources{Servers: []ServerResources{}}
	if err != nil || h == nil {
		return out, err
	}
	defer h.Close()
	for _, name := range names {
		res, err := h.Resources(ctx, name)
		if err != nil {
			return nil, err
		}
		out.Servers = append(out.Servers, ServerResources{Server: name, ResourceList: res})
	}
	return out, nil
}

// MCPPromptResult is the data of `relavium mcp prompt`.
type MCPPromptResult struct {
	Server string `json:"server"`
	Prompt string `json:"prompt"`
	*host.PromptResult
}

// WriteHuman prints each message under its role; text is sanitized, a
// non-text part is described.
func (r *MCPPromptResult) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if r.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", sanitize.Line(r.Description))
	}
	for _, m := range r.Messages {
		fmt.Fprintf(&b, "[%s]\n", sanitize.Line(m.Role))
		c := m.Content
		switch {
		case c.Text != "":
			b.WriteString(sanitize.Text(c.Text))
			if !strings.HasSuffix(c.Text, "\n") {
				b.WriteByte('\n')
			}
		default:
			fmt.Fprintf(&b, "[%s %s %s, %d bytes]\n", sanitize.Line(string(c.Type)), sanitize.Line(c.URI), sanitize.Line(c.MIMEType), len(c.Data))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RunMCPPrompt is `relavium mcp prompt`: render one prompt (prompts/get) of
// a declared server (SERVER NAME) or an ad-hoc one (NAME).
func RunMCPPrompt(ctx context.Context, inv *cli.Invocation) (any, error) {
	args := inv.Args
	adhoc := inv.Changed("url") || inv.Changed("stdio")
	server := ""
	if !adhoc {
		if len(args) < 2 {
			return nil, cli.UsageErr(cli.CodeBadArgs, "mcp prompt needs SERVER NAME (or NAME with --url/--stdio)")
		}
		server, args = args[0], args[1:]
	}
	if len(args) == 0 {
		return nil, cli.UsageErr(cli.CodeBadArgs, "mcp prompt needs the prompt's NAME")
	}
	name := args[0]
	values := map[string]string{}
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, cli.UsageErr(cli.CodeBadArgs, "%q is not KEY=VALUE", sanitize.Line(kv))
		}
		values[k] = v
	}
	h, names, err := browseTargets(ctx, inv, server)
	if err != nil {
		return nil, err
	}
	if h == nil {
		return nil, cli.UsageErr(cli.CodeNoSuchServer, "no MCP server is declared")
	}
	defer h.Close()
	res, err := h.GetPrompt(ctx, names[0], name, values)
	if err != nil {
		return nil, err
	}
	return &MCPPromptResult{Server: names[0], Prompt: name, PromptResult: res}, nil
}
