package gates

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/gates/lint"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/wire"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/cmd/mcp"
)

// listings collects the raw results of every listing the servers answered,
// off the wire recorder: lint reads definitions as the servers sent them,
// skipped tools included.
type listings struct {
	mu      sync.Mutex
	results map[string][]json.RawMessage // server + "\x00" + method → results
	held    int                          // bytes kept, at most maxListingBytes
}

// maxListingBytes bounds what lint keeps of the listings (four times a
// server's whole discovery budget per kind would be far more than lint
// needs); a listing past it is not read.
const maxListingBytes = 64 << 20

func (l *listings) add(r wire.Record) {
	if r.Dir != wire.Recv || r.Kind != wire.KindResponse || r.Message == nil {
		return
	}
	switch r.Method {
	case "tools/list", "prompts/list", "resources/list", "resources/templates/list":
	default:
		return
	}
	var m struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(r.Message, &m) != nil {
		return
	}
	l.mu.Lock()
	if l.held+len(m.Result) <= maxListingBytes {
		l.held += len(m.Result)
		l.results[r.Server+"\x00"+r.Method] = append(l.results[r.Server+"\x00"+r.Method], m.Result)
	}
	l.mu.Unlock()
}

// items returns the members of member ("tools", "prompts", …) of every
// recorded result of method.
func (l *listings) items(server, method, member string) []json.RawMessage {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []json.RawMessage
	for _, res := range l.results[server+"\x00"+method] {
		var page map[string]json.RawMessage
		if json.Unmarshal(res, &page) != nil {
			continue
		}
		var items []json.RawMessage
		if json.Unmarshal(page[member], &items) == nil {
			out = append(out, items...)
		}
	}
	return out
}

func nameOf(raw json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var s string
	_ = json.Unmarshal(m[key], &s)
	return s
}

// RunMCPLint is `relavium mcp lint`: static checks over every tool, prompt
// and resource the declared servers offer (exit 1 at --fail-on).
func RunMCPLint(ctx context.Context, inv *cli.Invocation) (any, error) {
	format := inv.String("format")
	if format == "sarif" && inv.Global.JSON {
		return nil, cli.UsageErr(cli.CodeBadFlag, "--format sarif prints a SARIF log, --json an envelope: give one")
	}
	servers, _, err := mcp.Targets(inv)
	if err != nil {
		return nil, err
	}
	rep, err := lintServers(ctx, inv, servers)
	if err != nil {
		return nil, err
	}
	failOn := inv.String("fail-on")
	fails := failOn != "never" && rep.Fails(failOn)
	if format == "sarif" {
		out, err := rep.SARIF(inv.Env.Version)
		if err != nil {
			return nil, err
		}
		if _, err := inv.Env.Stdout.Write(out); err != nil {
			return nil, err
		}
	} else if !inv.Global.JSON && fails {
		if err := rep.WriteHuman(inv.Env.Stdout); err != nil {
			return nil, err
		}
	}
	if fails {
		e, w, n, _ := rep.Count()
		return nil, &lint.Error{Base: fault.Base{ErrCode: lint.CodeFindings, Exit: fault.ExitFailure, Data: rep,
			Msg: fmt.Sprintf("%d error(s), %d warning(s), %d note(s): findings at or above --fail-on %s", e, w, n, failOn)}}
	}
	if format == "sarif" {
		return nil, nil
	}
	return rep, nil
}

// lintServers connects servers with a recorder attached and lints what
// they offer.
func lintServers(ctx context.Context, inv *cli.Invocation, servers []config.Server) (*lint.Report, error) {
	if len(servers) == 0 {
		return lint.Run(nil, nil), nil
	}
	if inv.Wire == nil {
		inv.Wire = wire.NewHub("", inv.Env.Now) // in memory: lint reads the listings off it
	}
	col := &listings{results: map[string][]json.RawMessage{}}
	recent, stop := inv.Wire.Subscribe(col.add)
	defer stop()
	for _, r := range recent {
		col.add(r)
	}
	h, err := cli.ConnectWith(ctx, inv, servers, nil, cli.ConnectOptions{})
	if err != nil {
		return nil, err
	}
	defer h.Close()
	var ls []lint.Server
	var sups []lint.Suppression
	for _, srv := range servers {
		defs, ok := h.Definitions(srv.Name)
		if !ok {
			continue
		}
		if _, err := h.Prompts(ctx, srv.Name); err != nil {
			return nil, err
		}
		if _, err := h.Resources(ctx, srv.Name); err != nil {
			return nil, err
		}
		s := lint.Server{Name: srv.Name, Defs: lintDefs(col, defs), SourceLine: srv.Pos.Line}
		if srv.Pos.File != "" {
			s.Source = srv.Pos.File
			if rel, err := filepath.Rel(inv.Global.Project, srv.Pos.File); err == nil && filepath.IsLocal(rel) {
				s.Source = filepath.ToSlash(rel)
			}
		}
		ls = append(ls, s)
		for _, sp := range srv.LintSuppress {
			sups = append(sups, lint.Suppression{Server: srv.Name, Rule: sp.Rule, Tool: sp.Tool, Reason: sp.Reason,
				At: fmt.Sprintf("%s:%d:%d", sp.Pos.File, sp.Pos.Line, sp.Pos.Col)})
		}
	}
	return lint.Run(ls, sups), nil
}

// lintDefs are a server's definitions as it sent them: every tool of its
// recorded tools/list pages (admitted or skipped), else the admitted
// canonical ones; every skipped tool not on a page (refused unread) by
// name, and where paging stopped, for lint to report unread (RL015); its
// prompts, resources and templates.
func lintDefs(col *listings, d *host.Definitions) []lint.Def {
	skipped := map[string]string{}
	var stopped []lint.Def // paging stopped, rows not kept: tools never read
	for _, s := range d.Skipped {
		if s.Tool != "*" {
			skipped[s.Tool] = s.Code
		} else {
			stopped = append(stopped, lint.Def{Kind: lint.KindTool, Name: "*", Skipped: s.Code})
		}
	}
	var out []lint.Def
	seen := map[string]bool{}
	for _, raw := range col.items(d.Server, "tools/list", "tools") {
		n := nameOf(raw, "name")
		seen[n] = true
		out = append(out, lint.Def{Kind: lint.KindTool, Name: n, Skipped: skipped[n], Raw: raw})
	}
	if len(seen) == 0 {
		for _, t := range d.Tools {
			seen[t.Name] = true
			out = append(out, lint.Def{Kind: lint.KindTool, Name: t.Name, Raw: t.Canonical})
		}
	}
	for name, code := range skipped {
		if !seen[name] {
			// Not on a recorded page (over the recorder's 4 MiB): lint
			// reports it unread (RL015) rather than pass it.
			out = append(out, lint.Def{Kind: lint.KindTool, Name: name, Skipped: code})
		}
	}
	out = append(out, stopped...)
	for _, l := range []struct{ method, member, kind, key string }{
		{"prompts/list", "prompts", lint.KindPrompt, "name"},
		{"resources/list", "resources", lint.KindResource, "uri"},
		{"resources/templates/list", "resourceTemplates", lint.KindTemplate, "uriTemplate"},
	} {
		for _, raw := range col.items(d.Server, l.method, l.member) {
			out = append(out, lint.Def{Kind: l.kind, Name: nameOf(raw, l.key), Raw: raw})
		}
	}
	return out
}
