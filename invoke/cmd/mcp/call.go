package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/fields"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/nesting"
)

// MCPCallResult is the data of `relavium mcp call`.
type MCPCallResult struct {
	Tool       string `json:"tool"`
	Server     string `json:"server"`
	DurationMS int64  `json:"duration_ms"`
	// Result is the result as the engine holds it; MCP is the same in MCP's
	// CallToolResult shape, which is what --json carries as result.
	Result *engine.ToolResult `json:"-"`
	MCP    *CallToolResult    `json:"result"`
	Output *CallOutput        `json:"output,omitempty"` // --output: where the exact text went
	Task   *host.Task         `json:"task,omitempty"`   // --task: the task as it ended
	// Adhoc says the call went to the ad-hoc server of --url or --stdio.
	Adhoc *AdhocRecord `json:"adhoc,omitempty"`
}

// AdhocRecord is what a call's record says of its ad-hoc server: the url
// or the command line, the digest it ran under, and on whose word: "typed"
// (a --stdio command line the person typed: run without a digest, for this
// invocation only), "allowed" (an --allow-mcp-stdio digest or a grant), or
// "guard" (a url the network guard admitted).
type AdhocRecord struct {
	Transport   string `json:"transport"`
	URL         string `json:"url,omitempty"`
	CommandLine string `json:"command_line,omitempty"`
	Digest      string `json:"digest,omitempty"`
	Consent     string `json:"consent"`
}

// adhocRecord is the record of the ad-hoc server the call used.
func adhocRecord(inv *cli.Invocation, h *host.Host, servers []config.Server) *AdhocRecord {
	if len(servers) != 1 {
		return nil
	}
	srv := servers[0]
	rec := &AdhocRecord{Transport: srv.Transport, Consent: "guard"}
	for _, st := range h.Servers() {
		if st.Name == srv.Name {
			rec.URL, rec.Digest = st.URL, st.Digest
		}
	}
	if srv.Transport == host.TransportStdio {
		rec.URL = ""
		rec.CommandLine = strings.Join(append([]string{srv.Command}, srv.Args...), " ")
		rec.Consent = "allowed"
		if inv.TypedStdio() {
			rec.Consent = "typed"
		}
	}
	return rec
}

// WriteHuman prints the result: every text part on its own, other parts as
// one descriptive line, structured content as JSON when there is no text.
// Server text is always sanitized, terminal or not (a pipe to less -R or
// tee, or a file that is cat later, delivers escapes as well); the exact
// bytes are what --output is for. With --output, the text is not printed:
// one line says where it went.
func (r *MCPCallResult) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if r.Output != nil {
		fmt.Fprintf(&b, "%s: %d bytes of result text written to %s\n", r.Tool, r.Output.Bytes, sanitize.Line(r.Output.Path))
	}
	hasText := false
	for _, c := range r.Result.Content {
		switch c.Type {
		case engine.ContentText:
			hasText = true
			if r.Output == nil {
				b.WriteString(sanitize.Text(c.Text))
				if !strings.HasSuffix(c.Text, "\n") {
					b.WriteByte('\n')
				}
			}
		case engine.ContentResource:
			if c.Text != "" {
				hasText = true
				b.WriteString(sanitize.Text(c.Text))
				b.WriteByte('\n')
			} else {
				fmt.Fprintf(&b, "[resource %s %s, %d bytes]\n", sanitize.Line(c.URI), sanitize.Line(c.MIMEType), len(c.Data))
			}
		case engine.ContentResourceLink:
			fmt.Fprintf(&b, "[link %s %s]\n", sanitize.Line(c.Name), sanitize.Line(c.URI))
		default:
			fmt.Fprintf(&b, "[%s %s, %d bytes]\n", sanitize.Line(string(c.Type)), sanitize.Line(c.MIMEType), len(c.Data))
		}
	}
	if !hasText && r.Output == nil && len(r.Result.Structured) > 0 {
		var v any
		if json.Unmarshal(r.Result.Structured, &v) == nil {
			out, _ := json.MarshalIndent(v, "", "  ")
			b.WriteString(sanitize.Text(string(out)) + "\n")
		}
	}
	_, err := w.Write([]byte(b.String()))
	return err
}

// RunMCPCall is `relavium mcp call`: call one tool and print its result.
func RunMCPCall(ctx context.Context, inv *cli.Invocation) (any, error) {
	name := inv.Args[0]
	servers, adhoc, err := Targets(inv)
	if err != nil {
		return nil, err
	}
	argText, kv, err := callArgs(inv)
	if err != nil {
		return nil, err
	}
	dest, err := outputPath(inv)
	if err != nil {
		return nil, err
	}
	co := cli.ConnectOptions{}
	if !adhoc {
		if co.Only, err = serversOffering(name, servers); err != nil {
			return nil, err
		}
	}

	bus := engine.NewBus(engine.BusOptions{Now: inv.Env.Now})
	var pr *cli.EventPrinter
	if inv.Bool("events") {
		pr = cli.StartNDJSONPrinter(bus, inv.Env.Stderr, inv.Env.Stderr)
	} else {
		pr = startMCPPrinter(bus, inv.Env.Stderr)
	}
	defer pr.Stop(bus)
	h, err := cli.ConnectWith(ctx, inv, servers, bus, co)
	if err != nil {
		return nil, err
	}
	defer h.Close() // before the printer stops (LIFO): every server is reaped first

	def, err := findTool(h, name, adhoc, servers)
	if err != nil {
		return nil, err
	}
	args, err := BuildArgs(argText, kv, def)
	if err != nil {
		return nil, err
	}
	// Arguments that would be refused are said before anyone is asked to
	// confirm the call (the call path validates them again).
	if err := h.Validate(def.ID, args); err != nil {
		return nil, err
	}
	if err := cli.ConfirmCall(ctx, inv, pr, bus, def, servers, adhoc); err != nil {
		return nil, err
	}

	var res *engine.ToolResult
	var took time.Duration
	var task *host.Task
	if inv.Bool("task") {
		res, task, took, err = callAsTask(ctx, inv, h, def, args) // task.go
	} else {
		res, took, err = engine.Trace(ctx, h, bus, engine.TracedCall{CallID: "call-1", Tool: def, Args: args, Timeout: inv.Duration("timeout")})
	}
	dur := took.Milliseconds()
	if err != nil {
		return nil, err
	}
	out := &MCPCallResult{Tool: def.Name, Server: def.Server, DurationMS: dur, Result: res, MCP: mcpResult(res), Task: task}
	if adhoc {
		out.Adhoc = adhocRecord(inv, h, servers)
	}
	if dest != "" {
		if out.Output, err = writeCallOutput(dest, res); err != nil {
			return nil, err
		}
	}
	if res.IsError {
		return nil, newToolErrorResult(out)
	}
	return out, nil
}

// serversOffering picks the servers to connect for a call of name: only one
// that can offer the name, since mcp_{server}_ must prefix it. Every server
// that could produce the name is among them, so a collision on it is still
// seen. A name no server's prefix fits may be a tool's short name (echo):
// every server is connected, and findTool takes it when exactly one server
// offers it. Routing itself is by the namespaced name the host admitted,
// never by this prefix.
func serversOffering(name string, servers []config.Server) (func(string) bool, error) {
	if len(servers) == 0 {
		return nil, toolNotFound(name, nil, nil, servers)
	}
	candidates := map[string]bool{}
	for _, s := range servers {
		if strings.HasPrefix(name, discovery.NamespacedName(s.Name, "")) {
			candidates[s.Name] = true
		}
	}
	if len(candidates) == 0 {
		return nil, nil // a short name: every server
	}
	return func(s string) bool { return candidates[s] }, nil
}

// findTool is the admitted tool a call of name reaches (an ad hoc server's
// tool also by its bare name). None: the consent refusal that kept its
// server from starting, or tool not found.
func findTool(h *host.Host, name string, adhoc bool, servers []config.Server) (engine.ToolDef, error) {
	id, ok := h.Lookup(name)
	if !ok && adhoc {
		id, ok = h.Lookup(discovery.NamespacedName(cli.AdhocServer, name))
	}
	if !ok { // a short name, when exactly one server offers it (else: did you mean)
		var only []engine.ToolDef
		for _, d := range h.Tools() {
			if d.Tool == name {
				only = append(only, d)
			}
		}
		if len(only) == 1 {
			return only[0], nil
		}
	}
	if !ok {
		for _, st := range h.Servers() {
			if st.ErrorCode == consent.CodeDenied {
				return engine.ToolDef{}, &failure.Error{Base: fault.Base{ErrCode: consent.CodeDenied, Msg: fmt.Sprintf("was not started (consent denied), so %s was not called", name)}, Server: st.Name}
			}
		}
		return engine.ToolDef{}, toolNotFound(name, h.Tools(), h.Skipped(), servers)
	}
	var def engine.ToolDef
	for _, d := range h.Tools() {
		if d.ID == id {
			def = d
		}
	}
	return def, nil
}

// toolErrorResult is an isError result: E543, exit 1, the whole result as
// data (fault.Base's), a message naming the tool and quoting the start of
// its error text, and in human form the tool's own text on stdout replaced
// by stderr.
type toolErrorResult struct {
	fault.Base
	out *MCPCallResult
}

func newToolErrorResult(out *MCPCallResult) *toolErrorResult {
	return &toolErrorResult{Base: fault.Base{ErrCode: cli.CodeToolError, Exit: cli.ExitFailure, Data: out,
		Msg: fmt.Sprintf("%s returned an error: %s", out.Tool, truncate(sanitize.Line(out.Result.Text()), 300))}, out: out}
}

// WriteHuman prints the tool's error text (sanitized, as every human
// rendering of server text is).
func (e *toolErrorResult) WriteHuman(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "relavium: %s: %s returned an error:\n", e.ErrCode, e.out.Tool); err != nil {
		return err
	}
	return e.out.WriteHuman(w)
}

// toolNotFound explains why name is not callable: skipped (with the
// reason), or unknown (with the closest admitted name).
func toolNotFound(name string, tools []engine.ToolDef, skipped []engine.SkippedTool, servers []config.Server) error {
	for _, s := range skipped {
		if discovery.NamespacedName(s.Server, s.Tool) == name || (s.Server == cli.AdhocServer && s.Tool == name) {
			return &failure.Error{Base: fault.Base{ErrCode: cli.CodeToolNotFound, Exit: cli.ExitUsage, Msg: fmt.Sprintf("%s was skipped at discovery (%s: %s)", name, s.Code, sanitize.Line(s.Detail))}, Server: s.Server}
		}
	}
	var names, bare []string
	for _, t := range tools {
		names = append(names, t.Name)
		if t.Tool == name && t.Name != name {
			bare = append(bare, t.Name) // the server's own name, typed without the namespace
		}
	}
	msg := fmt.Sprintf("no admitted tool is named %s", name)
	if len(bare) > 0 {
		sort.Strings(bare)
		return cli.UsageErr(cli.CodeToolNotFound, "%s; did you mean %s? (tool names are mcp_<server>_<tool>; see relavium mcp ls)", msg, strings.Join(bare, " or "))
	}
	if len(tools) == 0 && len(servers) > 0 && skipped == nil {
		var decl []string
		for _, s := range servers {
			decl = append(decl, s.Name)
		}
		sort.Strings(decl)
		msg += fmt.Sprintf(" (tool names are mcp_<server>_<tool>; declared servers: %s)", strings.Join(decl, ", "))
	} else if s := engine.Suggest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", s)
	}
	if len(servers) == 0 {
		msg += "; no MCP server is declared"
	}
	return cli.UsageErr(cli.CodeToolNotFound, "%s", msg+" (see relavium mcp ls)")
}

// callArgs reads --args (one JSON object) or KEY=VALUE words; not both.
// Everything that can be checked without the tool's schema is checked here,
// before anything is resolved, spawned or dialled: a usage mistake exits 2
// having started nothing.
func callArgs(inv *cli.Invocation) (string, []string, error) {
	kv := inv.Args[1:]
	if inv.Changed("args") && len(kv) > 0 {
		return "", nil, cli.UsageErr(cli.CodeBadCallArgs, "give the arguments as --args JSON or as KEY=VALUE words, not both")
	}
	if inv.Changed("timeout") && inv.Duration("timeout") <= 0 {
		return "", nil, cli.UsageErr(cli.CodeBadFlag, "--timeout must be positive, e.g. 60s")
	}
	argText := inv.String("args")
	if _, err := BuildArgs(argText, kv, engine.ToolDef{}); err != nil {
		return "", nil, err
	}
	return argText, kv, nil
}

// buildArgs makes the call's JSON object: --args as given, or KEY=VALUE
// words each typed by the one rule every surface uses (fields.Field.Value
// over the fields discovery read for def; a name the schema does not
// declare takes any JSON). So n=3 is the number 3 for an integer, and
// message=3 stays the string "3" for a string or ["string","null"].
func BuildArgs(argText string, kv []string, def engine.ToolDef) (json.RawMessage, error) {
	if argText != "" {
		if err := checkNesting("--args", argText); err != nil {
			return nil, err
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(argText), &obj); err != nil || obj == nil {
			return nil, &failure.Error{Base: fault.Base{ErrCode: cli.CodeBadCallArgs, Exit: cli.ExitUsage, Msg: "--args must be one JSON object", Cause: err}}
		}
		return json.RawMessage(argText), nil
	}
	byName := map[string]fields.Field{}
	fs, _ := def.InputFields() // an unreadable schema declares nothing: every name takes any JSON
	for _, f := range fs {
		byName[f.Name] = f
	}
	obj := map[string]json.RawMessage{}
	for _, w := range kv {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, &failure.Error{Base: fault.Base{ErrCode: cli.CodeBadCallArgs, Exit: cli.ExitUsage, Msg: fmt.Sprintf("argument %q is not KEY=VALUE", w)}}
		}
		if _, dup := obj[k]; dup {
			return nil, &failure.Error{Base: fault.Base{ErrCode: cli.CodeBadCallArgs, Exit: cli.ExitUsage, Msg: fmt.Sprintf("argument %s is given twice", k)}}
		}
		f, declared := byName[k]
		if !declared {
			f = fields.Field{Name: k}
		}
		val, err := f.Value(v)
		var deep *fields.DepthError
		var mistyped *fields.TypeError
		switch {
		case errors.As(err, &deep):
			return nil, cli.UsageErr(cli.CodeNestedJSON, "argument %q: %s at column %d; it was refused before it was parsed (a value meant as text goes in --args as a JSON string)",
				k, deep.Over.Describe(), deep.Over.Col)
		case errors.As(err, &mistyped):
			// As the validator says a value of the wrong type (E588).
			return nil, &discovery.Error{Base: fault.Base{ErrCode: discovery.CodeInvalidArgs, Msg: fmt.Sprintf("arguments for %s: at /%s: %s", def.Name, pointerToken(k), sanitize.Line(err.Error()))}, Server: def.Server, Pointer: "/" + pointerToken(k), Rule: "type"}
		case err != nil:
			return nil, err
		}
		obj[k] = val
	}
	return json.Marshal(obj)
}

// pointerToken escapes a property name as one JSON pointer token.
func pointerToken(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

// checkNesting refuses JSON typed on the command line that nests deeper
// than nesting.JSONDepth (the depth discovery accepts in a server's schema),
// before encoding/json builds anything from it.
func checkNesting(what, text string) error {
	if _, over := nesting.JSON([]byte(text), nesting.Limits{MaxDepth: nesting.JSONDepth}); over != nil {
		return cli.UsageErr(cli.CodeNestedJSON, "%s: %s at column %d; it was refused before it was parsed (a value meant as text goes in --args as a JSON string)",
			what, over.Describe(), over.Col)
	}
	return nil
}

// startMCPPrinter writes server state changes, progress and server logs to
// stderr for a person, through sanitize.Writer.
func startMCPPrinter(bus *engine.Bus, w io.Writer) *cli.EventPrinter {
	w = sanitize.NewWriter(w)
	p := cli.NewPrinter(bus, w, w)
	go p.Loop(func(e engine.Event, _ bool) bool {
		line := ""
		switch d := e.Data.(type) {
		case engine.ToolLogData:
			data := string(d.Data)
			var s string
			if json.Unmarshal(d.Data, &s) == nil {
				data = s
			}
			line = fmt.Sprintf("  log %s %s: %s", sanitize.Line(d.Level), sanitize.Line(d.Server), truncate(sanitize.Line(data), 500))
		case engine.ToolCallData, engine.ToolResultData:
		default:
			line = cli.HumanLine(e)
		}
		if line != "" {
			_, _ = p.W.Write([]byte(line + "\n"))
		}
		return false
	})
	return p
}
