package tui

import (
	"encoding/json"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/session"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/callcmd"
	"github.com/relavium/relavium/tui/clipboard"
	"github.com/relavium/relavium/tui/shellcmd"
)

// y copies the result on show, Y the CLI command that makes the same call,
// s saves the result to a file. The copy goes to the terminal's clipboard
// (package clipboard: an OSC 52 sequence drawn once with the frame, and a
// dialog showing the copied text).

// resultText is a job's outcome as text: the text parts, then structured
// content; contents and prompt messages; a run's outputs as JSON.
func (j *job) resultText() string {
	var parts []string
	switch {
	case j.result != nil:
		for _, c := range j.result.Content {
			if c.Text != "" {
				parts = append(parts, c.Text)
			}
		}
		if len(j.result.Structured) > 0 {
			parts = append(parts, string(j.result.Structured))
		}
	case j.contents != nil:
		for _, c := range j.contents {
			if c.Text != "" {
				parts = append(parts, c.Text)
			}
		}
	case j.prompt != nil:
		for _, msg := range j.prompt.Messages {
			parts = append(parts, msg.Role+": "+msg.Content.Text)
		}
	case j.run != nil:
		b, _ := json.Marshal(j.run.Outputs)
		parts = append(parts, string(b))
	case j.errMsg != "":
		parts = append(parts, strings.TrimSpace(string(j.errCode)+" "+j.errMsg))
	}
	return strings.Join(parts, "\n")
}

// copyText sends text to the clipboard (sanitized: no control sequence of
// the server's reaches the clipboard, and so a shell it is pasted into;
// bounded) and shows it for a manual copy.
func (m *Model) copyText(what, text string) tea.Cmd {
	return m.copyShown(what, text, nil)
}

// copyShown is copyText whose dialog shows the text as shown draws it at
// a width (nil: the text wrapped).
func (m *Model) copyShown(what, text string, shown func(iw int) []string) tea.Cmd {
	text, cut := m.clip.Put(text)
	note := what + ": sent to the clipboard (OSC 52, if your terminal allows it)"
	if cut {
		note += "; only the first 64 KiB"
	}
	m.status.set(note, false)
	m.pushDialog(clipboard.Shown(what, text, cut, shown))
	return clipboard.Wait(m.ctx, m.clip.Seq)
}

func (m *Model) yank() tea.Cmd {
	j := m.call.shownJob()
	if j == nil || !j.finished() {
		m.status.set("nothing to copy yet: the result is copied once it is in", false)
		return nil
	}
	return m.copyText("the result of "+j.title, j.resultText())
}

// yankCommand copies the mcp call command line that makes the call on
// show again (tool calls only). What the command needs to run headless as
// it stands (--yes, a digest) is decided off the update loop, as that
// invocation would decide it (Backend.Headless), then copied.
func (m *Model) yankCommand() tea.Cmd {
	j := m.call.shownJob()
	if j == nil || j.kind != jobTool {
		m.status.set("Y copies the command of a tool call: show one first", false)
		return nil
	}
	b, tool, adhoc, id := m.b, j.tool, m.copiesAdhoc(j), j.id
	return func() tea.Msg {
		needs, err := b.Headless(tool, adhoc)
		return yankCommandMsg{job: id, needs: needs, err: err}
	}
}

// yankCommandMsg is what the command of job needs to run headless.
type yankCommandMsg struct {
	job   string
	needs session.HeadlessNeeds
	err   error
}

func (m *Model) onYankCommand(msg yankCommandMsg) tea.Cmd {
	var j *job
	for _, x := range m.call.jobs {
		if x.id == msg.job {
			j = x
		}
	}
	if j == nil {
		return nil
	}
	if msg.err != nil {
		// Not knowing, the command asks nothing of anyone: --yes.
		msg.needs.Yes = true
		m.status.set("the command's consent was not read ("+backend.MessageOf(msg.err)+"): --yes added", true)
	}
	words := m.cliWords(j, msg.needs)
	return m.copyShown("the command", shellcmd.Command(words), func(iw int) []string { return shellcmd.Lines(words, iw) })
}

// copiesAdhoc reports whether j's command reaches its server ad hoc
// (--stdio or --url): the demo's server, and one added from the palette.
func (m *Model) copiesAdhoc(j *job) bool {
	r := m.server(j.tool.Server)
	return r != nil && r.spec.Target != "" && (m.info.Demo || r.spec.Adhoc)
}

// cliWords is the words of the command that makes j again, with what it
// needs to run headless (package callcmd; shellcmd quotes them).
func (m *Model) cliWords(j *job, needs session.HeadlessNeeds) []string {
	c := callcmd.Call{Agent: m.info.Agent, Name: j.tool.Name, Tool: j.tool.Tool, Args: j.args, Adhoc: m.copiesAdhoc(j)}
	if c.Adhoc {
		r := m.server(j.tool.Server)
		c.Transport, c.Target, c.AllowLocal = r.spec.Transport, r.spec.Target, r.spec.AllowLocal
	}
	return callcmd.Words(c, needs)
}

// save writes the result on show to a file (Backend.SaveResult).
func (m *Model) save() tea.Cmd {
	j := m.call.shownJob()
	if j == nil || !j.finished() {
		m.status.set("nothing to save yet", false)
		return nil
	}
	doc := map[string]any{"kind": j.kind.String(), "title": j.title, "server": j.server}
	if len(j.args) > 0 {
		doc["args"] = j.args
	}
	switch {
	case j.result != nil:
		doc["result"] = j.result
	case j.contents != nil:
		doc["contents"] = j.contents
	case j.prompt != nil:
		doc["prompt"] = j.prompt
	case j.run != nil:
		doc["run"] = j.run
	}
	if j.errCode != "" || j.errMsg != "" {
		doc["error"] = map[string]string{"code": string(j.errCode), "message": j.errMsg}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		m.status.set("cannot save: "+err.Error(), true)
		return nil
	}
	bk, name := m.b, j.kind.String()+"-"+j.id
	parts := m.saveParts(j) // images, audio, blobs: files of their own (results.go)
	return func() tea.Msg {
		p, err := bk.SaveResult(name, b)
		msg := savedMsg{path: p, err: err}
		if err == nil && parts != nil {
			msg.parts, msg.partsErr = parts()
		}
		return msg
	}
}

// savedMsg is a saved result's file, or why it was not written.
type savedMsg struct {
	path string
	err  error
	// parts are the binary parts saved as files, or why not (results.go).
	parts    []string
	partsErr error
}

func (m *Model) onSaved(msg savedMsg) {
	if msg.err != nil {
		m.status.set("save failed: "+msg.err.Error(), true)
		return
	}
	m.status.set("result saved to "+msg.path+partsStatus(msg.parts, msg.partsErr), msg.partsErr != nil)
}
