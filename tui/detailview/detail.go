package detailview

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
	"github.com/relavium/relavium/workflow"
)

// Skipped is a tool refused at discovery, and why.
func Skipped(s engine.SkippedTool) dialog.Dialog {
	return &dialog.Text{Title: "Skipped · " + render.ServerLine(s.Tool), Max: 100, Lines: func(st *themes.Styles, iw int) []string {
		var out []string
		out = append(out, dialog.Labelled(st, "server", render.ServerLine(s.Server), iw)...)
		out = append(out, dialog.Labelled(st, "reason", st.Error.Render(render.ServerLine(s.Code)), iw)...)
		out = append(out, dialog.Labelled(st, "detail", render.ServerText(s.Detail), iw)...)
		out = append(out, "", st.Muted.Render("relavium refused this tool at discovery; it cannot be called."))
		return out
	}}
}

// Tool is a tool in full: its sanitized description (marked as server
// text), its hints (its badge, advisory) and its schemas.
func Tool(t engine.ToolDef) dialog.Dialog {
	return &dialog.Text{Title: "Tool · " + render.ServerLine(t.Name), Max: 110, Lines: func(st *themes.Styles, iw int) []string {
		var out []string
		out = append(out, dialog.Labelled(st, "server", render.ServerLine(t.Server)+st.Muted.Render(" · tool "+render.ServerLine(t.Tool)), iw)...)
		if t.Title != "" {
			out = append(out, dialog.Labelled(st, "title", render.ServerLine(t.Title), iw)...)
		}
		out = append(out, dialog.Labelled(st, "hint", Badge(st, t)+st.Advisory.Render(" (advisory: the server's own annotation)"), iw)...)
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

func indentLines(lines []string, iw int) []string {
	var out []string
	for _, l := range lines {
		out = append(out, render.WrapIndent("  "+l, iw, "    ")...)
	}
	return out
}

// long is a labelled value on lines of its own (nothing when empty).
func long(st *themes.Styles, iw int, label, value string) []string {
	if value == "" {
		return nil
	}
	return append([]string{st.Muted.Render(label)}, render.WrapIndent("  "+value, iw, "  ")...)
}

// described is a server's description, marked as its text.
func described(st *themes.Styles, iw int, server, desc string) []string {
	if desc == "" {
		return []string{st.Muted.Render("(no description)")}
	}
	out := render.Wrap(st.Advisory.Render(sanitize.ExternalLabel(server)), iw)
	for _, l := range render.SplitLines(render.ServerText(desc)) {
		out = append(out, render.Wrap(l, iw)...)
	}
	return out
}

// Resource is a resource of server: everything its listing says, long
// values on lines of their own.
func Resource(server string, res host.Resource) dialog.Dialog {
	return &dialog.Text{Title: "Resource · " + render.ServerLine(res.Name), Max: 100, Lines: func(st *themes.Styles, iw int) []string {
		out := dialog.Labelled(st, "server", render.ServerLine(server), iw)
		out = append(out, dialog.Labelled(st, "name", render.ServerLine(res.Name), iw)...)
		if res.Title != "" {
			out = append(out, dialog.Labelled(st, "title", render.ServerLine(res.Title), iw)...)
		}
		if res.MIMEType != "" {
			out = append(out, dialog.Labelled(st, "type", render.ServerLine(res.MIMEType), iw)...)
		}
		if res.Size > 0 {
			out = append(out, dialog.Labelled(st, "size", render.HumanBytes(int(res.Size)), iw)...)
		}
		out = append(out, long(st, iw, "uri", render.ServerLine(res.URI))...)
		out = append(out, "")
		out = append(out, described(st, iw, server, res.Description)...)
		return append(out, "", st.Muted.Render("enter reads it"))
	}}
}

// Template is a resource template of server; vars are the variables its
// uri template fills.
func Template(server string, t host.ResourceTemplate, vars []string) dialog.Dialog {
	return &dialog.Text{Title: "Resource template · " + render.ServerLine(t.Name), Max: 100, Lines: func(st *themes.Styles, iw int) []string {
		out := dialog.Labelled(st, "server", render.ServerLine(server), iw)
		if t.Title != "" {
			out = append(out, dialog.Labelled(st, "title", render.ServerLine(t.Title), iw)...)
		}
		if t.MIMEType != "" {
			out = append(out, dialog.Labelled(st, "type", render.ServerLine(t.MIMEType), iw)...)
		}
		out = append(out, long(st, iw, "uri template", render.ServerLine(t.URITemplate))...)
		if len(vars) > 0 {
			out = append(out, dialog.Labelled(st, "fills", render.ServerLine(strings.Join(vars, ", ")), iw)...)
		}
		out = append(out, "")
		out = append(out, described(st, iw, server, t.Description)...)
		return append(out, "", st.Muted.Render("enter opens a form for its variables"))
	}}
}

// Prompt is a prompt of server and its arguments.
func Prompt(server string, p host.Prompt) dialog.Dialog {
	return &dialog.Text{Title: "Prompt · " + render.ServerLine(p.Name), Max: 100, Lines: func(st *themes.Styles, iw int) []string {
		out := dialog.Labelled(st, "server", render.ServerLine(server), iw)
		if p.Title != "" {
			out = append(out, dialog.Labelled(st, "title", render.ServerLine(p.Title), iw)...)
		}
		out = append(out, "")
		out = append(out, described(st, iw, server, p.Description)...)
		out = append(out, "", st.Bold.Render(fmt.Sprintf("arguments (%d)", len(p.Arguments))))
		for _, a := range p.Arguments {
			name := render.ServerLine(a.Name)
			if a.Required {
				name += st.Required.Render("*")
			}
			out = append(out, render.WrapIndent("  "+name+st.Muted.Render(" "+render.ServerLine(a.Title)), iw, "    ")...)
			if a.Description != "" {
				out = append(out, render.WrapIndent("    "+render.ServerLine(a.Description), iw, "    ")...)
			}
		}
		return out
	}}
}

// Workflow is a workflow: its effect, trigger, file, inputs and steps.
func Workflow(w *workflow.Workflow) dialog.Dialog {
	return &dialog.Text{Title: "Workflow · " + render.ServerLine(w.ID), Max: 100, Lines: func(st *themes.Styles, iw int) []string {
		out := dialog.Labelled(st, "effect", render.ServerLine(w.SideEffect), iw)
		out = append(out, dialog.Labelled(st, "trigger", render.ServerLine(w.Trigger), iw)...)
		out = append(out, long(st, iw, "file", render.ServerLine(w.File))...)
		if w.Description != "" {
			out = append(out, "")
			for _, l := range render.SplitLines(render.ServerText(w.Description)) {
				out = append(out, render.Wrap(l, iw)...)
			}
		}
		out = append(out, "", st.Bold.Render(fmt.Sprintf("inputs (%d)", len(w.Inputs))))
		for _, in := range w.Inputs {
			name := render.ServerLine(in.Name)
			if in.Required {
				name += st.Required.Render("*")
			}
			out = append(out, render.WrapIndent("  "+name+st.Muted.Render(" "+render.ServerLine(in.Type)+" "+render.ServerLine(in.Description)), iw, "    ")...)
		}
		out = append(out, "", st.Bold.Render(fmt.Sprintf("steps (%d)", len(w.Steps))))
		for i, s := range w.Steps {
			what := render.ServerLine(s.Tool)
			if s.Kind() == workflow.StepGate {
				what = st.Warn.Render("gate") + " " + render.ServerLine(s.Gate)
			}
			out = append(out, render.WrapIndent(fmt.Sprintf("  %d. %s  %s", i+1, render.ServerLine(s.ID), what), iw, "     ")...)
		}
		return out
	}}
}

// Badge is a tool's annotation badge: the server's claim, advisory (its
// row in the tools list, and its details).
func Badge(st *themes.Styles, t engine.ToolDef) string {
	var b string
	switch {
	case t.Annotations.IsReadOnly():
		b = st.BadgeRead.Render("read-only")
	case t.Annotations.Destructive != nil && !*t.Annotations.Destructive:
		b = st.BadgeWrite.Render("⚠ writes")
	default:
		b = st.BadgeDestructive.Render("⚠ destructive")
	}
	if t.Changed {
		b = st.BadgeChanged.Render("⚑ changed") + " " + b
	}
	return b
}
