package mcp

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/invoke/cli"
)

// MCPAccept is the data of `relavium mcp accept`: the tools whose changed
// definitions were accepted, or with --diff the flagged tools and how each
// differs from the definition the person accepted (nothing accepted).
type MCPAccept struct {
	DiffOnly bool         `json:"diff_only"`
	Tools    []FlaggedDef `json:"tools"`
}

// FlaggedDef is one tool whose definition changed since it was accepted.
type FlaggedDef struct {
	Name    string                  `json:"name"`
	Server  string                  `json:"server"`
	Tool    string                  `json:"tool"`
	Digest  string                  `json:"digest"` // the new definition's pin digest
	Changes []discovery.FieldChange `json:"changes"`
}

// RunMCPAccept connects the servers that could offer TOOL (every declared
// server with --all), exactly as `mcp call` does, and accepts the changed
// definition each flagged tool has now: the remembered approvals of the
// tool lapse, the definition is pinned, and the flag is gone. With --diff it
// shows the field diff and accepts nothing. Accepting is the person's act:
// the command is not on the machine surface.
func RunMCPAccept(ctx context.Context, inv *cli.Invocation) (any, error) {
	all := inv.Bool("all")
	switch {
	case all && len(inv.Args) > 0:
		return nil, cli.UsageErr(cli.CodeAcceptUsage, "give one TOOL or --all, not both")
	case !all && len(inv.Args) == 0:
		return nil, cli.UsageErr(cli.CodeAcceptUsage, "name the TOOL to accept (mcp_<server>_<tool>, see relavium mcp ls), or pass --all")
	}
	servers, _, err := Targets(inv)
	if err != nil {
		return nil, err
	}
	co := cli.ConnectOptions{}
	name := ""
	if !all {
		name = inv.Args[0]
		if co.Only, err = serversOffering(name, servers); err != nil {
			return nil, err
		}
	}
	out := &MCPAccept{DiffOnly: inv.Bool("diff"), Tools: []FlaggedDef{}}
	if len(servers) == 0 {
		return out, nil
	}
	h, err := cli.ConnectWith(ctx, inv, servers, nil, co)
	if err != nil {
		return nil, err
	}
	defer h.Close()

	var flagged []engine.ToolDef
	if all {
		for _, d := range h.Tools() {
			if d.Changed {
				flagged = append(flagged, d)
			}
		}
	} else {
		id, ok := h.Lookup(name)
		if !ok {
			return nil, toolNotFound(name, h.Tools(), h.Skipped(), servers)
		}
		for _, d := range h.Tools() {
			if d.ID == id {
				if !d.Changed {
					return nil, &failure.Error{Base: fault.Base{ErrCode: cli.CodeNotFlagged, Exit: cli.ExitUsage, Msg: fmt.Sprintf("%s is not flagged: its definition is the one you accepted, so there is nothing to accept", name)}, Server: d.Server}
				}
				flagged = append(flagged, d)
			}
		}
	}
	if out.DiffOnly {
		for _, d := range flagged {
			changes, _ := h.Changes(d.ID)
			out.Tools = append(out.Tools, flaggedDef(d, changes))
		}
		return out, nil
	}
	ids := make([]engine.ToolID, 0, len(flagged))
	for _, d := range flagged {
		ids = append(ids, d.ID)
	}
	accepted, err := h.Accept(ids)
	for _, a := range accepted {
		out.Tools = append(out.Tools, flaggedDef(a.Tool, a.Changes))
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func flaggedDef(d engine.ToolDef, changes []discovery.FieldChange) FlaggedDef {
	if changes == nil {
		changes = []discovery.FieldChange{}
	}
	return FlaggedDef{Name: d.Name, Server: d.Server, Tool: d.Tool, Digest: d.Digest, Changes: changes}
}

// WriteHuman lists each tool with its field diff, one changed field a line.
func (a *MCPAccept) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if len(a.Tools) == 0 {
		b.WriteString("no tool's definition changed since it was accepted: nothing to accept\n")
	}
	for _, t := range a.Tools {
		name := sanitize.Line(t.Name)
		if a.DiffOnly {
			fmt.Fprintf(&b, "⚑ %s changed since you accepted it (%d field(s)); the server's text is shown escaped:\n", name, len(t.Changes))
		} else {
			fmt.Fprintf(&b, "accepted %s: %d field(s) changed; its remembered approvals lapsed\n", name, len(t.Changes))
		}
		writeChanges(&b, t.Changes)
		if a.DiffOnly {
			fmt.Fprintf(&b, "  accept it with: relavium mcp accept %s\n", name)
		}
	}
	_, err := w.Write([]byte(b.String()))
	return err
}

// writeChanges renders a field diff: the JSON pointer, then the old and the
// new canonical value ("absent" for a field one side lacks).
func writeChanges(b *strings.Builder, changes []discovery.FieldChange) {
	side := func(s string) string {
		if s == "" {
			return "(absent)"
		}
		return truncate(sanitize.Line(s), 240)
	}
	for _, c := range changes {
		ptr := c.Pointer
		if ptr == "" {
			ptr = "(the whole definition)"
		}
		fmt.Fprintf(b, "  %s\n    - %s\n    + %s\n", sanitize.Line(ptr), side(c.Old), side(c.New))
	}
}
