package tui

import (
	"context"
	"encoding/json"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/render"
	"github.com/relavium/relavium/workflow"
)

// Cmds: the only places the model reaches the backend. Each returns a
// message; none touches the model.

func (m *Model) decideCmd(only string) tea.Cmd {
	b, ctx := m.b, m.ctx
	return func() tea.Msg {
		d, err := b.Decide(ctx)
		return decidedMsg{decisions: d, err: err, only: only}
	}
}

func (m *Model) reaskCmd(server string) tea.Cmd {
	b, ctx := m.b, m.ctx
	return func() tea.Msg {
		if err := b.Reask(server); err != nil {
			return decidedMsg{err: err, only: server}
		}
		d, err := b.Decide(ctx)
		return decidedMsg{decisions: d, err: err, only: server}
	}
}

// rebindCmd forgets the denials of a network server's secret bindings
// and connects it (asking again).
func (m *Model) rebindCmd(server string) tea.Cmd {
	b, ctx := m.b, m.ctx
	return func() tea.Msg {
		if err := b.Reask(server); err != nil {
			return connectedMsg{server: server, err: err}
		}
		return connectedMsg{server: server, err: b.Connect(ctx, server)}
	}
}

func (m *Model) answerCmd(server string, a backend.Answer) tea.Cmd {
	b := m.b
	return func() tea.Msg {
		return answeredMsg{server: server, answer: a, err: b.Answer(server, a)}
	}
}

// connectCmd connects one server; reconnect closes it first.
func (m *Model) connectCmd(server string, reconnect bool) tea.Cmd {
	b, ctx := m.b, m.ctx
	return func() tea.Msg {
		if reconnect {
			if err := b.Disconnect(server); err != nil {
				return connectedMsg{server: server, err: err}
			}
		}
		return connectedMsg{server: server, err: b.Connect(ctx, server)}
	}
}

func (m *Model) disconnectCmd(server string) tea.Cmd {
	b := m.b
	return func() tea.Msg {
		return disconnectedMsg{server: server, err: b.Disconnect(server)}
	}
}

func (m *Model) catalogueCmd() tea.Cmd {
	b := m.b
	m.browse.catSeq++
	seq := m.browse.catSeq
	return func() tea.Msg {
		t, s := b.Catalogue()
		return catalogueMsg{seq: seq, tools: t, skipped: s}
	}
}

func (m *Model) approveCmd(tool engine.ToolDef) tea.Cmd {
	b := m.b
	return func() tea.Msg { return approvedMsg{tool: tool, err: b.Approve(tool)} }
}

func (m *Model) changesCmd(tool engine.ToolDef) tea.Cmd {
	b := m.b
	return func() tea.Msg {
		c, err := b.Changes(tool.ID)
		return changesMsg{tool: tool, changes: c, err: err}
	}
}

func (m *Model) acceptCmd(tool engine.ToolDef) tea.Cmd {
	b := m.b
	return func() tea.Msg { return acceptedMsg{tool: tool, err: b.Accept(tool.ID)} }
}

func (m *Model) validateCmd(seq int, id engine.ToolID, args json.RawMessage) tea.Cmd {
	b := m.b
	return func() tea.Msg {
		errs := validateAll(b, id, args)
		msg := validatedMsg{seq: seq, args: args, errs: errs}
		if len(errs) > 0 {
			msg.err = errs[0]
		}
		return msg
	}
}

func (m *Model) callCmd(ctx context.Context, id string, tool engine.ToolDef, args json.RawMessage) tea.Cmd {
	b := m.b
	return func() tea.Msg {
		t0 := time.Now()
		res, err := b.Call(ctx, id, tool, args)
		return callDoneMsg{id: id, result: res, err: err, dur: time.Since(t0)}
	}
}

func (m *Model) readCmd(ctx context.Context, id, server, uri string) tea.Cmd {
	b := m.b
	return func() tea.Msg {
		t0 := time.Now()
		c, err := b.ReadResource(ctx, server, uri)
		return readDoneMsg{id: id, contents: c, err: err, dur: time.Since(t0)}
	}
}

func (m *Model) promptCmd(ctx context.Context, id, server, name string, args map[string]string) tea.Cmd {
	b := m.b
	return func() tea.Msg {
		t0 := time.Now()
		res, err := b.GetPrompt(ctx, server, name, args)
		return promptDoneMsg{id: id, res: res, err: err, dur: time.Since(t0)}
	}
}

func (m *Model) runCmd(ctx context.Context, id string, wf *workflow.Workflow, inputs map[string]any) tea.Cmd {
	b, gate := m.b, m.ask.Gate
	return func() tea.Msg {
		t0 := time.Now()
		res, err := b.RunWorkflow(ctx, id, wf, inputs, gate)
		return runDoneMsg{id: id, res: res, err: err, dur: time.Since(t0)}
	}
}

func (m *Model) resourcesCmd(server string) tea.Cmd {
	b, ctx := m.b, m.ctx
	return func() tea.Msg {
		l, err := b.Resources(ctx, server)
		return resourcesMsg{server: server, list: l, err: err}
	}
}

func (m *Model) promptsCmd(server string) tea.Cmd {
	b, ctx := m.b, m.ctx
	return func() tea.Msg {
		p, err := b.Prompts(ctx, server)
		return promptsMsg{server: server, prompts: p, err: err}
	}
}

func (m *Model) workflowsCmd() tea.Cmd {
	b := m.b
	return func() tea.Msg {
		w, err := b.Workflows()
		return workflowsMsg{workflows: w, err: err}
	}
}

func (m *Model) exportCmd() tea.Cmd {
	b := m.b
	evs := append([]engine.Event(nil), m.log.events...)
	return func() tea.Msg {
		p, err := b.Export(evs)
		return exportedMsg{path: p, err: err}
	}
}

// formTarget is what a submitted form starts.
type formTarget struct {
	kind     jobKind
	tool     engine.ToolDef
	server   string
	prompt   host.Prompt
	template host.ResourceTemplate
	wf       *workflow.Workflow
	task     bool // call the tool as a task (tasks.go)
	bench    bool // load the tool (bench.go)
}

func (t formTarget) title() string {
	switch t.kind {
	case jobPrompt:
		return "PROMPT · " + render.ServerLine(t.prompt.Name)
	case jobRead:
		return "READ · " + render.ServerLine(t.template.URITemplate)
	case jobRun:
		return "RUN · " + render.ServerLine(t.wf.ID)
	}
	if t.task {
		return "CALL AS A TASK · " + render.ServerLine(t.tool.Name)
	}
	if t.bench {
		return "LOAD · " + render.ServerLine(t.tool.Name)
	}
	return "CALL · " + render.ServerLine(t.tool.Name)
}
