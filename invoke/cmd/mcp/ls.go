package mcp

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/session"
)

// Targets is what an mcp command connects: the declared servers (the
// agent's, or every registration), or the one ad-hoc --url / --stdio
// server. Config warnings (deprecations) go to stderr.
func Targets(inv *cli.Invocation) (servers []config.Server, adhoc bool, err error) {
	servers, adhoc, err = declaredTargets(inv)
	if err == nil && inv.Changed("protocol") {
		// --protocol asks every target for that era, as a declaration's
		// protocol would (the ad-hoc server has no declaration to say it).
		for i := range servers {
			servers[i].Protocol = inv.String("protocol")
			if servers[i].Protocol == era.ProtocolModern && servers[i].Transport == netguard.TransportSSE {
				// The authored mistake a declaration's protocol would be.
				return nil, false, config.Codes().New(config.CodeProtocol, "--protocol %s cannot reach server %s: the legacy sse transport has only the initialize handshake; use --protocol auto or 2025-11-25, or a Streamable HTTP url", era.ProtocolModern, servers[i].Name)
			}
		}
	}
	return servers, adhoc, err
}

// ProtocolFlag is --protocol, on the commands that connect servers.
func ProtocolFlag() cli.Flag {
	return cli.Flag{Name: "protocol", Type: cli.String, Enum: config.Protocols(),
		Usage: "protocol era to ask every server for: 2025-11-25, 2026-07-28 or auto (overrides each declaration's protocol)"}
}

func declaredTargets(inv *cli.Invocation) (servers []config.Server, adhoc bool, err error) {
	url, stdio := inv.String("url"), inv.String("stdio")
	switch {
	case inv.Changed("header") && !inv.Changed("url"):
		return nil, false, cli.UsageErr(cli.CodeBadHeader, "--header applies to --url only (a declared server takes headers = { … } in its registration)")
	case inv.Changed("url") && inv.Changed("stdio"):
		return nil, false, cli.UsageErr(cli.CodeBadTarget, "--url and --stdio name two ad-hoc servers; give one")
	case inv.Changed("url"):
		if url == "" {
			return nil, false, cli.UsageErr(cli.CodeBadTarget, "--url is empty")
		}
		headers, err := cli.AdhocHeaders(inv.Strings("header"))
		if err != nil {
			return nil, false, err
		}
		return []config.Server{session.AdhocURL(cli.AdhocServer, url, inv.Bool("allow-local-endpoint"), headers)}, true, nil
	case inv.Changed("stdio"):
		words := strings.Fields(stdio)
		if len(words) == 0 {
			return nil, false, cli.UsageErr(cli.CodeBadTarget, `--stdio is empty; give "COMMAND ARG…"`)
		}
		if strings.ContainsRune(stdio, 0) {
			return nil, false, cli.UsageErr(cli.CodeBadTarget, "--stdio holds a NUL byte")
		}
		return []config.Server{session.AdhocStdio(cli.AdhocServer, words, inv.Global.Project)}, true, nil
	}
	if inv.Changed("allow-local-endpoint") {
		return nil, false, cli.UsageErr(cli.CodeBadTarget, "--allow-local-endpoint applies to --url only")
	}

	cfg, err := inv.LoadConfig()
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
	// AutoApproveUnmatched are tools_auto_approve entries naming no tool
	// the server admitted: harmless, but likely a typo.
	AutoApproveUnmatched []ServerTool `json:"auto_approve_unmatched,omitempty"`
	// Imported are the listed servers translated from other clients' files,
	// with where each is written; Offered the client files found in the
	// project that the configuration does not use.
	Imported []ImportedServer `json:"imported,omitempty"`
	Offered  []config.Offer   `json:"offered,omitempty"`
	project  string
	// partial: a server failed; the listing is what the others offer,
	// printed before the error (finish).
	partial bool
}

// PartialHuman reports that the listing is worth printing beside the error
// (a failure before any listing is a nil *MCPList: nothing to print).
func (l *MCPList) PartialHuman() bool { return l != nil && l.partial }

// ServerTool names one tool of one server by the server's own tool name.
type ServerTool struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
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
	// Digest is the pin digest of the definition (what an approval is
	// remembered against).
	Digest string `json:"digest,omitempty"`
	// Changed: the definition differs from the one the person accepted; it
	// stays set on every listing until `relavium mcp accept`. Changes is
	// the field diff against the accepted definition.
	Changed bool                    `json:"changed,omitempty"`
	Changes []discovery.FieldChange `json:"changes,omitempty"`
	// Approval says what lets a call go ahead unasked: "auto-approve"
	// (tools_auto_approve) or "remembered" (an approval of this exact
	// definition); "" means a call asks (or needs --yes). A changed
	// definition has none.
	Approval string `json:"approval,omitempty"`
}

// MCPArg summarises one input property.
type MCPArg struct {
	Name     string `json:"name"`
	Type     string `json:"type,omitempty"`
	Required bool   `json:"required,omitempty"`
}

// RunMCPList is `relavium mcp ls`: connect every declared server; list
// servers, admitted and skipped tools.
func RunMCPList(ctx context.Context, inv *cli.Invocation) (any, error) {
	servers, adhoc, err := Targets(inv)
	if err != nil {
		return nil, err
	}
	var offered []config.Offer
	var failed []config.FailedServer
	if !adhoc {
		if cfg, err := inv.LoadConfig(); err == nil { // read once more for what is offered, not used
			offered, failed = cfg.Offered, cfg.Failed
		}
	}
	if len(servers) == 0 {
		list := &MCPList{Servers: failedRows(inv.Global.Project, failed), Tools: []MCPTool{}, Skipped: []engine.SkippedTool{}, Offered: offered, project: inv.Global.Project}
		return list, notAdmitted(list, len(failed))
	}
	list, err := Inventory(ctx, inv, servers) // inventory.go: shared with the headless session
	if list != nil {
		list.Offered = offered
		list.Servers = append(list.Servers, failedRows(inv.Global.Project, failed)...)
		if err == nil {
			err = notAdmitted(list, len(failed))
		}
	}
	return list, err
}

// notAdmitted is the listing's failure when servers of other clients'
// files could not be admitted: the listing is printed beside it (the
// servers that work, then the failed rows) and it decides the exit (1), as
// a server failing to start does.
func notAdmitted(list *MCPList, failed int) error {
	if failed == 0 {
		return nil
	}
	list.partial = true
	return &fault.Error{ErrCode: failure.CodeStartFailed, Exit: fault.ExitFailure, Data: list,
		Msg: fmt.Sprintf("%d of %d MCP servers could not be admitted from their client file (each row says why)", failed, len(list.Servers))}
}

// failedRows are the servers of other clients' files that could not be
// admitted, as failed rows with their first problem, listed beside the
// servers that work (relavium's own config.toml fails whole before this).
func failedRows(project string, failed []config.FailedServer) []host.ServerStatus {
	rows := []host.ServerStatus{}
	for _, f := range failed {
		msg := f.Reason()
		if len(f.Problems) > 0 {
			msg = cli.ProblemLine(project, f.Problems[0])
		}
		rows = append(rows, host.ServerStatus{Name: f.Name, Transport: "-", State: engine.StateFailed,
			ErrorCode: fault.Code(f.Code()), Error: "not admitted from " + cli.RelPath(project, f.File) + ": " + msg})
	}
	return rows
}

// argSummary lists a tool's top-level input fields (read once at
// discovery), in the schema's own order, with their declared type set
// ("string|null") and whether they are required.
func argSummary(def engine.ToolDef) []MCPArg {
	out := []MCPArg{}
	fs, _ := def.InputFields()
	for _, f := range fs {
		out = append(out, MCPArg{Name: f.Name, Type: f.TypeLabel(), Required: f.Required})
	}
	return out
}

// WriteHuman prints the servers, the admitted tools and the skipped ones.
func (l *MCPList) WriteHuman(w io.Writer) error {
	var b strings.Builder
	writeServerRows(&b, l.Servers)
	writeSources(&b, l.project, l.Imported, l.Offered)
	writeToolRows(&b, l.Tools)
	for _, u := range l.AutoApproveUnmatched {
		fmt.Fprintf(&b, "  note: tools_auto_approve of %s names %s, which %s does not offer (harmless)\n",
			sanitize.Line(u.Server), sanitize.Line(u.Tool), sanitize.Line(u.Server))
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

// writeServerRows is the SERVERS block of mcp ls: one aligned row a server.
func writeServerRows(b *strings.Builder, servers []host.ServerStatus) {
	if len(servers) == 0 {
		b.WriteString("no MCP server is declared (add [[mcp_servers]] to .relavium/config.toml)\n")
	} else {
		b.WriteString("SERVERS\n")
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	for _, s := range servers {
		mark := "●"
		detail := fmt.Sprintf("%d tools", s.Tools)
		if s.Skipped > 0 {
			detail += fmt.Sprintf(", %d skipped", s.Skipped)
		}
		if s.State == engine.StateFailed {
			mark, detail = "✗", string(s.ErrorCode)+" "+sanitize.Line(s.Error)
		}
		where := ""
		switch {
		case s.PID != 0:
			where = fmt.Sprintf("pid %d", s.PID)
		case s.URL != "":
			where = sanitize.Line(s.URL)
		}
		if len(s.Headers) > 0 { // the names only: a header value is never shown
			names := slices.Sorted(maps.Keys(s.Headers))
			where += " (headers " + sanitize.Line(strings.Join(names, ", ")) + ")"
		}
		protocol := sanitize.Line(s.Protocol)
		if s.Era != nil {
			protocol += " " + s.Era.Name
		}
		fmt.Fprintf(tw, "  %s %s\t%s\t%s\t%s\t%s\t%s\n", mark, sanitize.Line(s.Name), s.Transport, sanitize.Line(where),
			msString(s.ConnectMS), protocol, detail)
	}
	_ = tw.Flush() // writes to a strings.Builder
	for _, s := range servers {
		if s.StrayStdout != nil {
			fmt.Fprintf(b, "  ⚠ %s wrote %d non-JSON line(s) on stdout, kept with its stderr (stdout is the JSON-RPC stream); the first: %q\n",
				sanitize.Line(s.Name), s.StrayStdout.Lines, sanitize.Line(s.StrayStdout.First))
		}
	}
}

// toolRow is one admitted tool's row in mcp ls, its text made safe.
type toolRow struct{ server, name, hint, args, changed, title string }

// writeToolRows is the TOOLS block of mcp ls. Each tool's row is followed by
// its description line, which tabwriter would treat as the end of a column
// block: the widths are measured here.
func writeToolRows(b *strings.Builder, tools []MCPTool) {
	if len(tools) > 0 {
		b.WriteString("TOOLS\n")
	}
	rows := make([]toolRow, 0, len(tools))
	nameW, hintW := 0, 0
	for _, t := range tools {
		r := newToolRow(t)
		nameW = max(nameW, utf8.RuneCountInString(r.name))
		hintW = max(hintW, utf8.RuneCountInString(r.hint))
		rows = append(rows, r)
	}
	labelled := map[string]bool{}
	for _, r := range rows {
		// A description is the server's own text: the first one shown from
		// each server comes after the line that says so.
		if r.title != "" && !labelled[r.server] {
			labelled[r.server] = true
			fmt.Fprintf(b, "  %s\n", sanitize.ExternalLabel(r.server))
		}
		line := fmt.Sprintf("  %-*s  %-*s  %s%s", nameW, r.name, hintW, r.hint, r.args, r.changed)
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
		if r.title != "" {
			fmt.Fprintf(b, "      %s\n", r.title)
		}
	}
}

// newToolRow is t's row: its hint, its arguments (name, * if required,
// :type), its approval and its title or description.
func newToolRow(t MCPTool) toolRow {
	r := toolRow{server: t.Server, name: sanitize.Line(t.Name), hint: "⚠ writes"}
	switch {
	case t.Annotations.IsReadOnly():
		r.hint = "read-only"
	case t.Annotations.IsDestructive():
		r.hint = "⚠ destructive"
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
	r.args = sanitize.Line(strings.Join(args, " "))
	switch {
	case t.Changed:
		r.changed = "  ⚑ changed since you accepted it: relavium mcp accept " + r.name + " --diff"
	case t.Approval == "auto-approve":
		r.changed = "  (auto-approved)"
	case t.Approval == "remembered":
		r.changed = "  (approved)"
	}
	if title := firstNonEmpty(t.Title, t.Description); title != "" {
		r.title = truncate(sanitize.Line(title), 100)
	}
	return r
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

// markApprovals sets each tool's Approval and lists the tools_auto_approve
// entries that name no admitted tool. A tool approval store that cannot be
// read marks no tool remembered (it fails closed).
func (l *MCPList) markApprovals(inv *cli.Invocation, servers []config.Server, tools []engine.ToolDef) {
	offered := map[ServerTool]bool{}
	for _, d := range tools {
		offered[ServerTool{d.Server, d.Tool}] = true
	}
	adhoc := false
	for _, s := range servers {
		adhoc = adhoc || s.Name == cli.AdhocServer && s.Pos.File == ""
		for _, t := range s.ToolsAutoApprove {
			if !offered[ServerTool{s.Name, t}] {
				l.AutoApproveUnmatched = append(l.AutoApproveUnmatched, ServerTool{s.Name, t})
			}
		}
	}
	core := session.New(cli.SessionOptions(inv), servers)
	set, _ := consent.OpenApprovals(inv.Env.Home, nil).Fold(func(server, tool string) bool { return offered[ServerTool{server, tool}] })
	for i, t := range l.Tools {
		if t.Changed || adhoc { // an ad-hoc server has no remembered approvals
			continue
		}
		switch {
		case core.AutoApproved(tools[i]):
			l.Tools[i].Approval = "auto-approve"
		case set.Approved(consent.ToolKey{Server: t.Server, Tool: t.Tool, Digest: t.Digest}):
			l.Tools[i].Approval = "remembered"
		}
	}
}
