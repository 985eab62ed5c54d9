package tui

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/fields"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/form"
	"github.com/relavium/relavium/tui/render"
	"github.com/relavium/relavium/workflow"
)

// What enter does on a row of the middle pane, and what a submitted form
// starts: a tool call (validated first), a resource read (a template's
// variables filled in), a prompt, a workflow run.

// activate is enter on a middle-pane row.
func (m *Model) activate(r listRow) tea.Cmd {
	switch r.kind {
	case rowTool:
		specs, err := r.tool.InputFields()
		if err != nil {
			m.status.set("cannot build a form: "+err.Error()+" (ctrl+t for raw JSON)", true)
		}
		m.openForm(formTarget{kind: jobTool, tool: r.tool, server: r.tool.Server}, specs, nil)
		if err != nil {
			m.call.form.ToggleRaw()
		}
	case rowSkipped:
		m.pushDialog(m.detailsDialog(r))
	case rowResource:
		j, ctx := m.newJob(jobRead, m.servers.current(), r.res.URI, nil)
		return m.readCmd(ctx, j.id, j.server, r.res.URI)
	case rowTemplate:
		var specs []fields.Field
		for _, v := range templateVars(r.tmpl.URITemplate) {
			specs = append(specs, fields.Field{Name: v, Types: []string{"string"}, Required: true})
		}
		m.openForm(formTarget{kind: jobRead, server: m.servers.current(), template: r.tmpl}, specs, nil)
	case rowPrompt:
		var specs []fields.Field
		for _, a := range r.prompt.Arguments {
			specs = append(specs, fields.Field{Name: a.Name, Title: a.Title, Description: a.Description, Types: []string{"string"}, Required: a.Required})
		}
		t := formTarget{kind: jobPrompt, server: m.servers.current(), prompt: r.prompt}
		if len(specs) == 0 {
			return m.getPrompt(t, map[string]string{})
		}
		m.openForm(t, specs, nil)
	case rowWorkflow:
		specs := r.wf.Fields()
		t := formTarget{kind: jobRun, wf: r.wf}
		if len(specs) == 0 {
			return m.confirmRun(r.wf, map[string]any{})
		}
		m.openForm(t, specs, nil)
	}
	return nil
}

func (m *Model) openForm(t formTarget, specs []fields.Field, values map[string]any) {
	m.call.form = form.New(m.st, specs, values)
	m.call.formFor = t
	m.call.formSeq++
	m.focus, m.call.editing, m.call.history = paneCall, true, false
}

// submitForm builds the arguments and starts what the form is for. A tool
// call is validated against the tool's schema first (errors inline).
func (m *Model) submitForm() tea.Cmd {
	args, ok := m.call.form.Args()
	if !ok {
		m.status.set("not sent: fix the marked fields", true)
		return nil
	}
	t := m.call.formFor
	if t.kind != jobTool { // a tool's own schema judges its arguments (validateCmd)
		var content map[string]any
		_ = json.Unmarshal(args, &content) // args built above: one object
		if !m.call.form.RequireFilled(content) {
			m.status.set("not sent: fill the required fields (marked *)", true)
			return nil
		}
	}
	switch t.kind {
	case jobTool:
		m.call.formSeq++
		m.dialogs.guard.Expect() // its question (this call?) is on its way
		return m.validateCmd(m.call.formSeq, t.tool.ID, args)
	case jobPrompt:
		var raw map[string]any
		_ = json.Unmarshal(args, &raw)
		strs := map[string]string{}
		for k, v := range raw {
			if s, ok := v.(string); ok {
				strs[k] = s
			} else {
				b, _ := json.Marshal(v)
				strs[k] = string(b)
			}
		}
		return m.getPrompt(t, strs)
	case jobRead:
		var raw map[string]any
		_ = json.Unmarshal(args, &raw)
		uri := expandTemplate(t.template.URITemplate, raw)
		j, ctx := m.newJob(jobRead, t.server, uri, args)
		return m.readCmd(ctx, j.id, t.server, uri)
	case jobRun:
		var inputs map[string]any
		dec := json.NewDecoder(strings.NewReader(string(args)))
		dec.UseNumber()
		_ = dec.Decode(&inputs)
		return m.confirmRun(t.wf, inputs)
	}
	return nil
}

func (m *Model) getPrompt(t formTarget, args map[string]string) tea.Cmd {
	raw, _ := json.Marshal(args)
	j, ctx := m.newJob(jobPrompt, t.server, t.prompt.Name, raw)
	return m.promptCmd(ctx, j.id, t.server, t.prompt.Name, args)
}

// confirmRun asks before a workflow whose side effect is remote or
// destructive (or that has gates: the gates ask on their own), then runs.
func (m *Model) confirmRun(wf *workflow.Workflow, inputs map[string]any) tea.Cmd {
	if wf.SideEffect != "remote" && wf.SideEffect != "destructive" {
		return m.startRun(wf, inputs)
	}
	j := &job{title: wf.ID}
	m.pushDialog(&dialog.Confirm{Title: "Run workflow " + render.ServerLine(wf.ID) + "?", SideEffect: wf.SideEffect,
		Reason: wf.Description, Plan: m.runPlan(j, ""), Focus: 1,
		Yes: runConfirmAction{wf: wf, inputs: inputs}, No: statusAction{text: "workflow " + wf.ID + " not run"}})
	return nil
}

var templateVar = regexp.MustCompile(`\{([+#./;?&]?)([A-Za-z0-9_.,%*:-]+)\}`)

// templateVars lists the variable names of an RFC 6570 template.
func templateVars(t string) []string {
	var out []string
	seen := map[string]bool{}
	for _, mm := range templateVar.FindAllStringSubmatch(t, -1) {
		for _, v := range strings.Split(mm[2], ",") {
			v = strings.TrimSuffix(strings.SplitN(v, ":", 2)[0], "*")
			if v != "" && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// expandTemplate fills a template's simple ({var}) and reserved ({+var})
// expressions; other operators get their values joined as written.
func expandTemplate(t string, vals map[string]any) string {
	return templateVar.ReplaceAllStringFunc(t, func(expr string) string {
		mm := templateVar.FindStringSubmatch(expr)
		var parts []string
		for _, v := range strings.Split(mm[2], ",") {
			v = strings.TrimSuffix(strings.SplitN(v, ":", 2)[0], "*")
			s, _ := vals[v].(string)
			if mm[1] == "" {
				s = url.PathEscape(s)
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ",")
	})
}
