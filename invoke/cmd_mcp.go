package invoke

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/discovery"
)

// adhocServer is the name of the one unnamed server --url or --stdio
// targets (its tools are mcp_adhoc_<tool>, or just <tool>).
const adhocServer = "adhoc"

// mcpTargets is what an mcp command connects: the declared servers (the
// agent's, or every registration), or the one ad-hoc --url / --stdio
// server. Config warnings (deprecations) go to stderr.
func mcpTargets(inv *Invocation) (servers []config.Server, adhoc bool, err error) {
	url, stdio := inv.String("url"), inv.String("stdio")
	switch {
	case inv.Changed("url") && inv.Changed("stdio"):
		return nil, false, &host.Error{ErrCode: host.CodeBadTarget, Exit: ExitUsage, Msg: "--url and --stdio name two ad-hoc servers; give one"}
	case inv.Changed("url"):
		if url == "" {
			return nil, false, &host.Error{ErrCode: host.CodeBadTarget, Exit: ExitUsage, Msg: "--url is empty"}
		}
		transport := host.TransportHTTP
		if strings.HasPrefix(url, "ws://") || strings.HasPrefix(url, "wss://") {
			transport = host.TransportWebsocket
		}
		return []config.Server{{Name: adhocServer, Transport: transport, URL: url, AllowLocalEndpoint: inv.Bool("allow-local-endpoint")}}, true, nil
	case inv.Changed("stdio"):
		words := strings.Fields(stdio)
		if len(words) == 0 {
			return nil, false, &host.Error{ErrCode: host.CodeBadTarget, Exit: ExitUsage, Msg: `--stdio is empty; give "COMMAND ARG…"`}
		}
		if strings.ContainsRune(stdio, 0) {
			return nil, false, &host.Error{ErrCode: host.CodeBadTarget, Exit: ExitUsage, Msg: "--stdio holds a NUL byte"}
		}
		return []config.Server{{Name: adhocServer, Transport: host.TransportStdio, Command: words[0], Args: words[1:], Dir: inv.Global.Project}}, true, nil
	}
	if inv.Changed("allow-local-endpoint") {
		return nil, false, &host.Error{ErrCode: host.CodeBadTarget, Exit: ExitUsage, Msg: "--allow-local-endpoint applies to --url only"}
	}
	cfg, err := config.Load(inv.Env.Home, inv.Global.Project)
	if err != nil {
		return nil, false, err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(inv.Env.Stderr, "relavium: warning: %s\n", sanitize.Line(fmt.Sprint(w)))
	}
	servers, err = cfg.Declared(inv.Global.Agent)
	return servers, false, err
}

// MCPList is the data of `relavium mcp ls`.
type MCPList struct {
	Servers []host.ServerStatus  `json:"servers"`
	Tools   []MCPTool            `json:"tools"`
	Skipped []engine.SkippedTool `json:"skipped"`
}

// MCPTool is one admitted tool as `mcp ls` lists it.
type MCPTool struct {
	Name        string             `json:"name"`
	Server      string             `json:"server"`
	Tool        string             `json:"tool"`
	Title       string             `json:"title,omitempty"`
	Description string             `json:"description,omitempty"`
	Annotations engine.Annotations `json:"annotations"`
	Args        []MCPArg           `json:"args"`
	Changed     bool               `json:"changed,omitempty"`
}

// MCPArg summarises one input property.
type MCPArg struct {
	Name     string `json:"name"`
	Type     string `json:"type,omitempty"`
	Required bool   `json:"required,omitempty"`
}

func runMCPList(ctx context.Context, inv *Invocation) (any, error) {
	servers, _, err := mcpTargets(inv)
	if err != nil {
		return nil, err
	}
	if len(servers) == 0 {
		return &MCPList{Servers: []host.ServerStatus{}, Tools: []MCPTool{}, Skipped: []engine.SkippedTool{}}, nil
	}
	h, err := connectWith(ctx, inv, servers, nil, connectOptions{})
	if err != nil {
		return nil, err
	}
	defer h.Close()
	list := &MCPList{Servers: h.Servers(), Tools: []MCPTool{}, Skipped: h.Skipped()}
	if list.Skipped == nil {
		list.Skipped = []engine.SkippedTool{}
	}
	for _, d := range h.Tools() {
		list.Tools = append(list.Tools, MCPTool{Name: d.Name, Server: d.Server, Tool: d.Tool, Title: d.Title,
			Description: d.Description, Annotations: d.Annotations, Args: argSummary(d.InputSchema), Changed: d.Changed})
	}
	return list, nil
}

// argSummary lists the top-level properties of an input schema, in the
// schema's own order, with their type and whether they are required.
func argSummary(schema json.RawMessage) []MCPArg {
	out := []MCPArg{}
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return out
	}
	dec := json.NewDecoder(strings.NewReader(string(s.Properties)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return out
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		name, _ := tok.(string)
		var prop struct {
			Type any `json:"type"`
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return out
		}
		_ = json.Unmarshal(raw, &prop)
		a := MCPArg{Name: name, Required: contains(s.Required, name)}
		switch t := prop.Type.(type) {
		case string:
			a.Type = t
		case []any:
			var ts []string
			for _, x := range t {
				ts = append(ts, fmt.Sprint(x))
			}
			a.Type = strings.Join(ts, "|")
		}
		out = append(out, a)
	}
	return out
}

// WriteHuman prints the servers, the admitted tools and the skipped ones.
func (l *MCPList) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if len(l.Servers) == 0 {
		b.WriteString("no MCP server is declared (add [[mcp_servers]] to .relavium/config.toml)\n")
	}
	b.WriteString("SERVERS\n")
	for _, s := range l.Servers {
		mark := "●"
		detail := fmt.Sprintf("%d tools", s.Tools)
		if s.Skipped > 0 {
			detail += fmt.Sprintf(", %d skipped", s.Skipped)
		}
		if s.State == engine.StateFailed {
			mark, detail = "✗", s.ErrorCode+" "+sanitize.Line(s.Error)
		}
		where := ""
		switch {
		case s.PID != 0:
			where = fmt.Sprintf("pid %d", s.PID)
		case s.URL != "":
			where = sanitize.Line(s.URL)
		}
		fmt.Fprintf(&b, "  %s %-16s %-9s %-12s %6s  %-10s  %s\n", mark, sanitize.Line(s.Name), s.Transport, where,
			msString(s.ConnectMS), s.Protocol, detail)
	}
	if len(l.Tools) > 0 {
		b.WriteString("TOOLS\n")
	}
	for _, t := range l.Tools {
		hint := "⚠ writes"
		switch {
		case t.Annotations.IsReadOnly():
			hint = "read-only"
		case t.Annotations.IsDestructive():
			hint = "⚠ destructive"
		}
		var args []string
		for _, a := range t.Args {
			s := a.Name
			if a.Required {
				s += "*"
			}
			if a.Type != "" {
				s += ":" + a.Type
			}
			args = append(args, s)
		}
		changed := ""
		if t.Changed {
			changed = "  (changed since last seen)"
		}
		fmt.Fprintf(&b, "  %-40s %-14s %s%s\n", sanitize.Line(t.Name), hint, sanitize.Line(strings.Join(args, " ")), changed)
		if title := firstNonEmpty(t.Title, t.Description); title != "" {
			fmt.Fprintf(&b, "      %s\n", truncate(sanitize.Line(title), 100))
		}
	}
	if len(l.Skipped) > 0 {
		b.WriteString("SKIPPED\n")
	}
	for _, s := range l.Skipped {
		fmt.Fprintf(&b, "  ✗ %s/%s  %s: %s\n", sanitize.Line(s.Server), sanitize.Line(s.Tool), s.Code, truncate(sanitize.Line(s.Detail), 120))
	}
	_, err := w.Write([]byte(b.String()))
	return err
}

func msString(ms int64) string {
	if ms <= 0 {
		return ""
	}
	return fmt.Sprintf("%dms", ms)
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// MCPCallResult is the data of `relavium mcp call`.
type MCPCallResult struct {
	Tool       string             `json:"tool"`
	Server     string             `json:"server"`
	DurationMS int64              `json:"duration_ms"`
	Result     *engine.ToolResult `json:"result"`
	tty        bool
}

// WriteHuman prints the result: every text part on its own, other parts as
// one descriptive line, structured content as JSON when there is no text.
// On a terminal, server text is sanitized (no control sequences reach it).
func (r *MCPCallResult) WriteHuman(w io.Writer) error {
	var b strings.Builder
	show := func(s string) string {
		if r.tty {
			return sanitize.Text(s)
		}
		return s
	}
	hasText := false
	for _, c := range r.Result.Content {
		switch c.Type {
		case "text":
			hasText = true
			b.WriteString(show(c.Text))
			if !strings.HasSuffix(c.Text, "\n") {
				b.WriteByte('\n')
			}
		case "resource":
			if c.Text != "" {
				hasText = true
				b.WriteString(show(c.Text))
				b.WriteByte('\n')
			} else {
				fmt.Fprintf(&b, "[resource %s %s, %d bytes]\n", sanitize.Line(c.URI), sanitize.Line(c.MIMEType), len(c.Data))
			}
		case "resource_link":
			fmt.Fprintf(&b, "[link %s %s]\n", sanitize.Line(c.Name), sanitize.Line(c.URI))
		default:
			fmt.Fprintf(&b, "[%s %s, %d bytes]\n", c.Type, sanitize.Line(c.MIMEType), len(c.Data))
		}
	}
	if !hasText && len(r.Result.Structured) > 0 {
		var v any
		if json.Unmarshal(r.Result.Structured, &v) == nil {
			out, _ := json.MarshalIndent(v, "", "  ")
			b.WriteString(show(string(out)) + "\n")
		}
	}
	_, err := w.Write([]byte(b.String()))
	return err
}

func runMCPCall(ctx context.Context, inv *Invocation) (any, error) {
	name := inv.Args[0]
	servers, adhoc, err := mcpTargets(inv)
	if err != nil {
		return nil, err
	}
	argText, kv, err := callArgs(inv)
	if err != nil {
		return nil, err
	}
	co := connectOptions{}
	if !adhoc {
		// Only a server that can offer the name is connected: mcp_{server}_
		// must prefix it. Every server that could produce the name is among
		// them, so a collision on it is still seen. Routing itself is by the
		// namespaced name the host admitted, never by this prefix.
		candidates := map[string]bool{}
		for _, s := range servers {
			if strings.HasPrefix(name, discovery.NamespacedName(s.Name, "")) {
				candidates[s.Name] = true
			}
		}
		if len(candidates) == 0 {
			return nil, toolNotFound(name, nil, nil, servers)
		}
		co.only = func(s string) bool { return candidates[s] }
	}

	bus := engine.NewBus(engine.BusOptions{Now: inv.Env.Now})
	var pr *eventPrinter
	if inv.Bool("events") {
		pr = startNDJSONPrinter(bus, inv.Env.Stderr, inv.Env.Stderr)
	} else {
		pr = startMCPPrinter(bus, inv.Env.Stderr)
	}
	defer pr.stop(bus)
	// The call's progress is re-emitted below with its call id (OnProgress);
	// the host's own copies would be duplicates under another id.
	hostEm := engine.EmitterFunc(func(e engine.Event) {
		if e.Type != engine.EventToolProgress {
			bus.Emit(e)
		}
	})
	h, err := connectWith(ctx, inv, servers, hostEm, co)
	if err != nil {
		return nil, err
	}
	defer h.Close() // before the printer stops (LIFO): every server is reaped first

	id, ok := h.Lookup(name)
	if !ok && adhoc {
		id, ok = h.Lookup(discovery.NamespacedName(adhocServer, name))
	}
	if !ok {
		return nil, toolNotFound(name, h.Tools(), h.Skipped(), servers)
	}
	var def engine.ToolDef
	for _, d := range h.Tools() {
		if d.ID == id {
			def = d
		}
	}
	args, err := buildArgs(argText, kv, def.InputSchema)
	if err != nil {
		return nil, err
	}
	if err := confirmCall(ctx, inv, pr, bus, def); err != nil {
		return nil, err
	}

	callID := "call-1"
	bus.Emit(engine.Event{Type: engine.EventToolCall, Data: engine.ToolCallData{CallID: callID, Tool: def.Name, Server: def.Server,
		Args: sanitizedArgs(args)}})
	began := time.Now()
	res, err := h.Call(ctx, id, args, engine.CallOptions{Timeout: inv.Duration("timeout"), OnProgress: func(p engine.Progress) {
		bus.Emit(engine.Event{Type: engine.EventToolProgress, Data: engine.ToolProgressData{CallID: callID, Progress: p}})
	}})
	dur := time.Since(began).Milliseconds()
	rd := engine.ToolResultData{CallID: callID, Tool: def.Name, Result: res, DurationMS: dur}
	if err != nil {
		rd.ErrorCode, rd.Error = CodeOf(err), err.Error()
	}
	bus.Emit(engine.Event{Type: engine.EventToolResult, Data: rd})
	if err != nil {
		return nil, err
	}
	out := &MCPCallResult{Tool: def.Name, Server: def.Server, DurationMS: dur, Result: res, tty: inv.Env.StdoutTTY}
	if res.IsError {
		return nil, &toolErrorResult{out: out}
	}
	return out, nil
}

// toolErrorResult is an isError result: exit 1, the result as data, and in
// human form the tool's own text on stdout is replaced by stderr.
type toolErrorResult struct{ out *MCPCallResult }

func (e *toolErrorResult) Error() string {
	return host.CodeToolError + ": " + e.Message()
}

// Message names the tool and quotes the start of its error text.
func (e *toolErrorResult) Message() string {
	return fmt.Sprintf("%s returned an error: %s", e.out.Tool, truncate(sanitize.Line(e.out.Result.Text()), 300))
}

// Code is E543.
func (e *toolErrorResult) Code() string { return host.CodeToolError }

// ExitCode is 1.
func (e *toolErrorResult) ExitCode() int { return ExitFailure }

// ErrorData is the whole result.
func (e *toolErrorResult) ErrorData() any { return e.out }

// WriteHuman prints the tool's error text.
func (e *toolErrorResult) WriteHuman(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "relavium: %s: %s returned an error:\n", host.CodeToolError, e.out.Tool); err != nil {
		return err
	}
	out := *e.out
	out.tty = true // stderr: always sanitized
	return out.WriteHuman(w)
}

// toolNotFound explains why name is not callable: skipped (with the
// reason), or unknown (with the closest admitted name).
func toolNotFound(name string, tools []engine.ToolDef, skipped []engine.SkippedTool, servers []config.Server) error {
	for _, s := range skipped {
		if discovery.NamespacedName(s.Server, s.Tool) == name || (s.Server == adhocServer && s.Tool == name) {
			return &host.Error{ErrCode: host.CodeToolNotFound, Exit: ExitUsage, Server: s.Server,
				Msg: fmt.Sprintf("%s was skipped at discovery (%s: %s)", name, s.Code, sanitize.Line(s.Detail))}
		}
	}
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	msg := fmt.Sprintf("no admitted tool is named %s", name)
	if len(tools) == 0 && len(servers) > 0 && skipped == nil {
		var decl []string
		for _, s := range servers {
			decl = append(decl, s.Name)
		}
		sort.Strings(decl)
		msg += fmt.Sprintf(" (tool names are mcp_<server>_<tool>; declared servers: %s)", strings.Join(decl, ", "))
	} else if s := suggest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", s)
	}
	if len(servers) == 0 {
		msg += "; no MCP server is declared"
	}
	return &host.Error{ErrCode: host.CodeToolNotFound, Exit: ExitUsage, Msg: msg + " (see relavium mcp ls)"}
}

// callArgs reads --args (one JSON object) or KEY=VALUE words; not both.
func callArgs(inv *Invocation) (string, []string, error) {
	kv := inv.Args[1:]
	if inv.Changed("args") && len(kv) > 0 {
		return "", nil, &host.Error{ErrCode: host.CodeBadCallArgs, Exit: ExitUsage, Msg: "give the arguments as --args JSON or as KEY=VALUE words, not both"}
	}
	return inv.String("args"), kv, nil
}

// buildArgs makes the call's JSON object. KEY=VALUE values are parsed as
// JSON where the schema does not declare the property a string (so n=3 is
// a number and message=3 stays the string "3"); a value that is not JSON is
// a string.
func buildArgs(argText string, kv []string, schema json.RawMessage) (json.RawMessage, error) {
	if argText != "" {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(argText), &obj); err != nil || obj == nil {
			return nil, &host.Error{ErrCode: host.CodeBadCallArgs, Exit: ExitUsage, Msg: "--args must be one JSON object", Cause: err}
		}
		return json.RawMessage(argText), nil
	}
	types := map[string]string{}
	for _, a := range argSummary(schema) {
		types[a.Name] = a.Type
	}
	obj := map[string]any{}
	for _, w := range kv {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, &host.Error{ErrCode: host.CodeBadCallArgs, Exit: ExitUsage, Msg: fmt.Sprintf("argument %q is not KEY=VALUE", w)}
		}
		if _, dup := obj[k]; dup {
			return nil, &host.Error{ErrCode: host.CodeBadCallArgs, Exit: ExitUsage, Msg: fmt.Sprintf("argument %s is given twice", k)}
		}
		var parsed any
		if types[k] != "string" && json.Unmarshal([]byte(v), &parsed) == nil {
			obj[k] = parsed
		} else {
			obj[k] = v
		}
	}
	b, err := json.Marshal(obj)
	return b, err
}

// sanitizedArgs is the call's arguments for an event: every string made
// safe for display.
func sanitizedArgs(args json.RawMessage) json.RawMessage {
	var v any
	if json.Unmarshal(args, &v) != nil {
		return nil
	}
	b, err := json.Marshal(sanitizeValue(v))
	if err != nil {
		return nil
	}
	return b
}

func sanitizeValue(v any) any {
	switch x := v.(type) {
	case string:
		return sanitize.Text(x)
	case []any:
		for i := range x {
			x[i] = sanitizeValue(x[i])
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[sanitize.Line(k)] = sanitizeValue(e)
		}
		return out
	}
	return v
}

// confirmCall asks before calling a tool the server did not annotate
// read-only: on a terminal y/N, otherwise --yes is required (exit 2).
func confirmCall(ctx context.Context, inv *Invocation, pr *eventPrinter, bus *engine.Bus, def engine.ToolDef) error {
	if def.Annotations.IsReadOnly() || inv.Bool("yes") {
		return nil
	}
	what := "may change things"
	if def.Annotations.IsDestructive() {
		what = "may be destructive"
	}
	if !inv.CanPrompt() {
		return &host.Error{ErrCode: host.CodeNeedsYes, Exit: ExitUsage, Server: def.Server,
			Msg: fmt.Sprintf("%s is not annotated read-only (it %s) and no one can be asked here; pass --yes to call it", def.Name, what)}
	}
	if err := pr.catchUp(ctx, bus.Seq()); err != nil {
		return err
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	fmt.Fprintf(inv.Env.Stderr, "? %s is not annotated read-only (it %s). Call it? [y/N] ", def.Name, what)
	line, err := readLine(ctx, inv.Env.Stdin)
	if err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(inv.Env.Stderr)
		return err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return &host.Error{ErrCode: host.CodeCallRefused, Server: def.Server, Msg: def.Name + " was not called (you answered no)"}
}

// startMCPPrinter writes server state changes, progress and server logs to
// stderr for a person.
func startMCPPrinter(bus *engine.Bus, w io.Writer) *eventPrinter {
	p := newPrinter(bus, w, w)
	go p.loop(func(e engine.Event, _ bool) bool {
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
			line = humanLine(e)
		}
		if line != "" {
			_, _ = p.w.Write([]byte(line + "\n"))
		}
		return false
	})
	return p
}
