package browse

import (
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine/sanitize"
)

// MaxInstructions bounds the instructions kept for the details view.
const MaxInstructions = 8 << 10

// ServerDetails is what a server said of itself at initialize: its
// serverInfo, the capabilities it declared and its instructions. All of
// it is the server's word, cleaned here (one-line fields as such, the
// instructions as text) and bounded.
type ServerDetails struct {
	Name, Title, Version, Description, WebsiteURL string
	Icons                                         []string // each icon as text: its source (a data URI shortened), type and sizes
	Capabilities                                  []string // "tools (listChanged)", "resources (subscribe, listChanged)", …
	Instructions                                  string
	InstructionsCut                               bool // longer than MaxInstructions
	Protocol                                      string
}

// Details is what res (a server's initialize answer) says of the server,
// cleaned and bounded.
func Details(res *mcp.InitializeResult) ServerDetails {
	d := ServerDetails{Protocol: sanitize.Line(res.ProtocolVersion)}
	if si := res.ServerInfo; si != nil {
		d.Name, d.Title, d.Version = sanitize.Line(si.Name), sanitize.Line(si.Title), sanitize.Line(si.Version)
		d.Description, d.WebsiteURL = sanitize.Line(si.Description), sanitize.Line(si.WebsiteURL)
		for i, ic := range si.Icons {
			if i == 8 {
				d.Icons = append(d.Icons, "…")
				break
			}
			src := ic.Source
			if strings.HasPrefix(src, "data:") && len(src) > 40 {
				src = src[:40] + "…"
			}
			s := sanitize.Line(src)
			if ic.MIMEType != "" {
				s += " " + sanitize.Line(ic.MIMEType)
			}
			if len(ic.Sizes) > 0 {
				s += " " + sanitize.Line(strings.Join(ic.Sizes, ","))
			}
			d.Icons = append(d.Icons, s)
		}
	}
	d.Capabilities = capabilityWords(res.Capabilities)
	text := res.Instructions
	if len(text) > MaxInstructions {
		text, d.InstructionsCut = text[:MaxInstructions], true
	}
	d.Instructions = strings.TrimSpace(sanitize.Text(text))
	return d
}

// capabilityWords names each declared capability with its sub-features.
func capabilityWords(caps *mcp.ServerCapabilities) []string {
	if caps == nil {
		return nil
	}
	var out []string
	with := func(name string, subs ...string) {
		var on []string
		for i := 0; i+1 < len(subs); i += 2 {
			if subs[i+1] == "y" {
				on = append(on, subs[i])
			}
		}
		if len(on) > 0 {
			name += " (" + strings.Join(on, ", ") + ")"
		}
		out = append(out, name)
	}
	yes := func(b bool) string {
		if b {
			return "y"
		}
		return ""
	}
	if t := caps.Tools; t != nil {
		with("tools", "listChanged", yes(t.ListChanged))
	}
	if r := caps.Resources; r != nil {
		with("resources", "subscribe", yes(r.Subscribe), "listChanged", yes(r.ListChanged))
	}
	if p := caps.Prompts; p != nil {
		with("prompts", "listChanged", yes(p.ListChanged))
	}
	if caps.Logging != nil {
		with("logging")
	}
	if caps.Completions != nil {
		with("completions")
	}
	var extra []string
	for k := range caps.Experimental {
		extra = append(extra, "experimental "+sanitize.Line(k))
	}
	for k := range caps.Extensions {
		extra = append(extra, "extension "+sanitize.Line(k))
	}
	sort.Strings(extra)
	if len(extra) > 16 {
		extra = append(extra[:16], "…")
	}
	return append(out, extra...)
}
