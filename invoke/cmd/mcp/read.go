package mcp

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/invoke/cli"
)

// mcp read and mcp complete: a resource read and an argument completion on
// one declared server, headless.

// MCPReadResult is the data of `relavium mcp read`.
type MCPReadResult struct {
	Server   string           `json:"server"`
	URI      string           `json:"uri"`
	Contents []engine.Content `json:"contents"`
	Output   *CallOutput      `json:"output,omitempty"` // --output: where the bytes went
	// Updates are the reads made at each update (--subscribe).
	Updates []ReadUpdate `json:"updates,omitempty"`
}

// WriteHuman prints every text part (sanitized) and describes every binary
// one by type and size; with --output, one line says where the bytes went.
func (r *MCPReadResult) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if r.Output != nil {
		fmt.Fprintf(&b, "%s: %d bytes written to %s\n", sanitize.Line(r.URI), r.Output.Bytes, sanitize.Line(r.Output.Path))
	}
	r.writeContents(&b)
	writeUpdates(&b, r)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeContents prints the text parts and describes the binary ones.
func (r *MCPReadResult) writeContents(b *strings.Builder) {
	for _, c := range r.Contents {
		switch {
		case c.Data != nil || c.Text == "" && c.MIMEType != "" && !strings.HasPrefix(c.MIMEType, "text/"):
			fmt.Fprintf(b, "[%s %s, %d bytes]\n", sanitize.Line(c.URI), sanitize.Line(firstNonEmpty(c.MIMEType, "application/octet-stream")), len(c.Data))
		case r.Output == nil:
			b.WriteString(sanitize.Text(c.Text))
			if !strings.HasSuffix(c.Text, "\n") {
				b.WriteByte('\n')
			}
		}
	}
}

// oneServer is the declared server name; nothing else is connected.
func oneServer(inv *cli.Invocation, name string) ([]config.Server, cli.ConnectOptions, error) {
	cfg, err := config.LoadFrom(inv.Env.Home, inv.Global.Project, config.Sources{LookupEnv: inv.Env.LookupEnv})
	if err != nil {
		return nil, cli.ConnectOptions{}, err
	}
	servers, err := cfg.Declared(inv.Global.Agent)
	if err != nil {
		return nil, cli.ConnectOptions{}, err
	}
	var names []string
	for _, s := range servers {
		if s.Name == name {
			return servers, cli.ConnectOptions{Only: func(n string) bool { return n == name }}, nil
		}
		names = append(names, s.Name)
	}
	return nil, cli.ConnectOptions{}, cli.UsageErr(cli.CodeNoSuchServer, "no declared server is named %s (declared: %s)", sanitize.Line(name), firstNonEmpty(strings.Join(names, ", "), "none"))
}

// RunMCPRead is `relavium mcp read`: read one resource of a declared server;
// --output writes its bytes to a file.
func RunMCPRead(ctx context.Context, inv *cli.Invocation) (any, error) {
	name, uri := inv.Args[0], inv.Args[1]
	dest, err := outputPath(inv)
	if err != nil {
		return nil, err
	}
	watch, err := subscribeFor(inv)
	if err != nil {
		return nil, err
	}
	servers, co, err := oneServer(inv, name)
	if err != nil {
		return nil, err
	}
	waiter := &updateWaiter{server: name, uri: uri, ch: make(chan struct{}, 1)}
	h, err := cli.ConnectWith(ctx, inv, servers, waiter, co)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	contents, err := h.ReadResource(ctx, name, uri)
	if err != nil {
		return nil, err
	}
	out := &MCPReadResult{Server: name, URI: uri, Contents: contents}
	if watch > 0 {
		if out.Updates, err = follow(ctx, inv, h, waiter, watch); err != nil {
			return nil, err
		}
		if n := len(out.Updates); n > 0 {
			contents = out.Updates[n-1].Contents // --output writes the last read
		}
	}
	if dest != "" {
		if len(contents) != 1 {
			return nil, &cli.Error{ErrCode: cli.CodeNoContents, Msg: fmt.Sprintf("%s has %d parts; --output writes one", sanitize.Line(uri), len(contents))}
		}
		data := contents[0].Data
		if data == nil {
			data = []byte(contents[0].Text)
		}
		if err := atomicfile.Write(dest, data); err != nil {
			return nil, &cli.Error{ErrCode: cli.CodeOutputWrite, Msg: fmt.Sprintf("cannot write %s to %s (left as it was)", sanitize.Line(uri), dest), Cause: err}
		}
		out.Output = &CallOutput{Path: dest, Bytes: len(data)}
	}
	return out, nil
}

// MCPCompleteResult is the data of `relavium mcp complete`.
type MCPCompleteResult struct {
	Server     string             `json:"server"`
	Ref        host.CompletionRef `json:"ref"`
	Argument   string             `json:"argument"`
	Value      string             `json:"value"`
	Completion *host.Completion   `json:"completion"`
}

// WriteHuman prints one value a line (each one a line a terminal shows as
// it is: host drops any other).
func (r *MCPCompleteResult) WriteHuman(w io.Writer) error {
	var b strings.Builder
	for _, v := range r.Completion.Values {
		b.WriteString(v + "\n")
	}
	if r.Completion.HasMore {
		fmt.Fprintf(&b, "… more (%d in all): type more of the value\n", r.Completion.Total)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// parseRef reads REF: prompt:NAME or resource:URI-TEMPLATE.
func parseRef(s string) (host.CompletionRef, error) {
	kind, v, ok := strings.Cut(s, ":")
	switch {
	case ok && kind == "prompt" && v != "":
		return host.CompletionRef{Type: host.RefPrompt, Name: v}, nil
	case ok && kind == "resource" && v != "":
		return host.CompletionRef{Type: host.RefResource, URI: v}, nil
	}
	return host.CompletionRef{}, cli.UsageErr(cli.CodeBadRef, "REF %q is neither prompt:NAME nor resource:URI-TEMPLATE", sanitize.Line(s))
}

// RunMCPComplete is `relavium mcp complete`: ask a declared server to
// complete a prompt argument or a resource template variable.
func RunMCPComplete(ctx context.Context, inv *cli.Invocation) (any, error) {
	name, argName := inv.Args[0], inv.Args[2]
	ref, err := parseRef(inv.Args[1])
	if err != nil {
		return nil, err
	}
	value := ""
	if len(inv.Args) > 3 {
		value = inv.Args[3]
	}
	known := map[string]string{}
	for _, kv := range inv.Strings("arg") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, cli.UsageErr(cli.CodeBadRef, "--arg %q is not KEY=VALUE", sanitize.Line(kv))
		}
		known[k] = v
	}
	servers, co, err := oneServer(inv, name)
	if err != nil {
		return nil, err
	}
	h, err := cli.ConnectWith(ctx, inv, servers, nil, co)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	c, err := h.Complete(ctx, name, ref, argName, value, known)
	if err != nil {
		return nil, err
	}
	return &MCPCompleteResult{Server: name, Ref: ref, Argument: argName, Value: value, Completion: c}, nil
}
