package tui

import (
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
)

// detailsDialog shows a row in full: a tool's sanitized description
// (marked as server text), its hints and its schemas; a skipped tool's
// reason.
func (m *Model) detailsDialog(r listRow) dialog.Dialog {
	switch r.kind {
	case rowSkipped:
		s := r.skip
		return &dialog.Text{Title: "Skipped · " + render.ServerLine(s.Tool), Max: 100, Lines: func(st *themes.Styles, iw int) []string {
			var out []string
			out = append(out, dialog.Labelled(st, "server", render.ServerLine(s.Server), iw)...)
			out = append(out, dialog.Labelled(st, "reason", st.Error.Render(render.ServerLine(s.Code)), iw)...)
			out = append(out, dialog.Labelled(st, "detail", render.ServerText(s.Detail), iw)...)
			out = append(out, "", st.Muted.Render("relavium refused this tool at discovery; it cannot be called."))
			return out
		}}
	case rowTool:
		t := r.tool
		return &dialog.Text{Title: "Tool · " + render.ServerLine(t.Name), Max: 110, Lines: func(st *themes.Styles, iw int) []string {
			var out []string
			out = append(out, dialog.Labelled(st, "server", render.ServerLine(t.Server)+st.Muted.Render(" · tool "+render.ServerLine(t.Tool)), iw)...)
			if t.Title != "" {
				out = append(out, dialog.Labelled(st, "title", render.ServerLine(t.Title), iw)...)
			}
			out = append(out, dialog.Labelled(st, "hint", m.browse.badge(t)+st.Advisory.Render(" (advisory: the server's own annotation)"), iw)...)
			if t.Changed {
				out = append(out, render.Wrap(st.BadgeChanged.Render("⚑ the definition changed since you accepted it: A shows the field diff and accepts it; until then every call asks"), iw)...)
			}
			out = append(out, "")
			desc := render.ServerText(t.Description)
			if desc == "" {
				desc = "(no description)"
			}
			label := sanitize.ExternalLabel(t.Server)
			out = append(out, render.Wrap(st.Advisory.Render(label), iw)...)
			for _, l := range render.SplitLines(desc) {
				out = append(out, render.Wrap(l, iw)...)
			}
			out = append(out, "", st.Bold.Render("input schema"))
			out = append(out, indentLines(render.JSONLines(st, t.InputSchema), iw)...)
			if len(t.OutputSchema) > 0 {
				out = append(out, "", st.Bold.Render("output schema"))
				out = append(out, indentLines(render.JSONLines(st, t.OutputSchema), iw)...)
			}
			return out
		}}
	}
	if d := m.browseDetails(r); d != nil {
		return d
	}
	return &dialog.Text{Title: "Details", Max: 80, Lines: func(st *themes.Styles, iw int) []string { return nil }}
}

func indentLines(lines []string, iw int) []string {
	var out []string
	for _, l := range lines {
		out = append(out, render.WrapIndent("  "+l, iw, "    ")...)
	}
	return out
}
