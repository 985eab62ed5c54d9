package mcp

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/invoke/cli"
)

// ImportedServer says which client file a listed server was translated
// from (relavium's provenance of a server it did not read from its own
// config).
type ImportedServer struct {
	Server string     `json:"server"`
	Source config.Pos `json:"source"`
	Shape  string     `json:"shape"`
	// Written is the name as the file writes it, when the name rule mapped
	// it to Server.
	Written string `json:"written,omitempty"`
}

// sourcesOf lists the imported servers among servers.
func sourcesOf(servers []config.Server) []ImportedServer {
	var out []ImportedServer
	for _, s := range servers {
		if s.Import == nil {
			continue
		}
		is := ImportedServer{Server: s.Name, Source: s.Pos, Shape: s.Import.Shape}
		if s.Import.Written != s.Name {
			is.Written = s.Import.Written
		}
		out = append(out, is)
	}
	return out
}

// writeSources is mcp ls's account of other clients' files: where each
// imported server is written, and the files found in the project that the
// configuration does not use (with where each of their servers is).
func writeSources(b *strings.Builder, project string, imported []ImportedServer, offered []config.Offer) {
	if len(imported) > 0 {
		b.WriteString("IMPORTED\n")
	}
	for _, s := range imported {
		from := fmt.Sprintf("%s:%d:%d", cli.RelPath(project, s.Source.File), s.Source.Line, s.Source.Col)
		fmt.Fprintf(b, "  %s  from %s", sanitize.Line(s.Server), sanitize.Line(from))
		if s.Written != "" {
			fmt.Fprintf(b, " (written %q there)", sanitize.Line(s.Written))
		}
		b.WriteString("\n")
	}
	if len(offered) > 0 {
		b.WriteString("OFFERED (found in the project, not used: list them in import = [...] of .relavium/config.toml, or pass --config FILE)\n")
	}
	for _, o := range offered {
		var names []string
		for _, s := range o.Servers {
			names = append(names, fmt.Sprintf("%s (line %d)", sanitize.Line(s.Name), s.Pos.Line))
		}
		if len(names) == 0 {
			names = []string{"no server relavium can read"}
		}
		fmt.Fprintf(b, "  %s  %s\n", sanitize.Line(cli.RelPath(project, o.File)), strings.Join(names, ", "))
	}
}

// OfferedNote is one offered file in a line: what the workbench shows
// when the project keeps a client file its configuration does not use.
func OfferedNote(project string, o config.Offer) string {
	names := make([]string, len(o.Servers))
	for i, s := range o.Servers {
		names[i] = fmt.Sprintf("%s (line %d)", s.Name, s.Pos.Line)
	}
	rel := cli.RelPath(project, o.File)
	return fmt.Sprintf("%s is not used (%s): add import = [%q] to .relavium/config.toml to use it", rel, strings.Join(names, ", "), rel)
}
