package tui

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
	"github.com/relavium/relavium/workflow"
)

// browseDetails is i on a resource, a template, a prompt or a workflow:
// everything its listing says, long values on lines of their own.
func (m *Model) browseDetails(r listRow) dialog.Dialog {
	server := m.servers.current()
	long := func(st *themes.Styles, iw int, label, value string) []string {
		if value == "" {
			return nil
		}
		return append([]string{st.Muted.Render(label)}, render.WrapIndent("  "+value, iw, "  ")...)
	}
	described := func(st *themes.Styles, iw int, desc string) []string {
		if desc == "" {
			return []string{st.Muted.Render("(no description)")}
		}
		out := render.Wrap(st.Advisory.Render(sanitize.ExternalLabel(server)), iw)
		for _, l := range render.SplitLines(render.ServerText(desc)) {
			out = append(out, render.Wrap(l, iw)...)
		}
		return out
	}
	switch r.kind {
	case rowResource:
		res := r.res
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
			out = append(out, described(st, iw, res.Description)...)
			return append(out, "", st.Muted.Render("enter reads it"))
		}}
	case rowTemplate:
		t := r.tmpl
		return &dialog.Text{Title: "Resource template · " + render.ServerLine(t.Name), Max: 100, Lines: func(st *themes.Styles, iw int) []string {
			out := dialog.Labelled(st, "server", render.ServerLine(server), iw)
			if t.Title != "" {
				out = append(out, dialog.Labelled(st, "title", render.ServerLine(t.Title), iw)...)
			}
			if t.MIMEType != "" {
				out = append(out, dialog.Labelled(st, "type", render.ServerLine(t.MIMEType), iw)...)
			}
			out = append(out, long(st, iw, "uri template", render.ServerLine(t.URITemplate))...)
			if vars := templateVars(t.URITemplate); len(vars) > 0 {
				out = append(out, dialog.Labelled(st, "fills", render.ServerLine(strings.Join(vars, ", ")), iw)...)
			}
			out = append(out, "")
			out = append(out, described(st, iw, t.Description)...)
			return append(out, "", st.Muted.Render("enter opens a form for its variables"))
		}}
	case rowPrompt:
		p := r.prompt
		return &dialog.Text{Title: "Prompt · " + render.ServerLine(p.Name), Max: 100, Lines: func(st *themes.Styles, iw int) []string {
			out := dialog.Labelled(st, "server", render.ServerLine(server), iw)
			if p.Title != "" {
				out = append(out, dialog.Labelled(st, "title", render.ServerLine(p.Title), iw)...)
			}
			out = append(out, "")
			out = append(out, described(st, iw, p.Description)...)
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
	case rowWorkflow:
		w := r.wf
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
	return nil
}
