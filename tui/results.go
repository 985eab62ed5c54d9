package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/graphics"
	"github.com/relavium/relavium/tui/render"
)

// What the call pane does with a shown result's parts: s saves its binary
// parts too (Backend.Save, in package live; with yank.go's save of the
// result), o opens its resource links in the resources view, p previews
// its image where the terminal can show one (previewShown, drawing through
// package graphics).

// saveParts returns the work of saving every binary part of j, each to a
// file of its own (nil when it has none). s runs it after the result's
// JSON is saved (yank.go's save): one key saves both.
func (m *Model) saveParts(j *job) func() ([]string, error) {
	parts := j.binaryParts()
	if len(parts) == 0 {
		return nil
	}
	b, id := m.b, j.id
	return func() ([]string, error) {
		var lines []string
		for i, c := range parts {
			path, err := b.Save(id, i+1, c.MIMEType, c.Data)
			if err != nil {
				return lines, err
			}
			lines = append(lines, fmt.Sprintf("%s %s → %s", render.ServerLine(firstNonEmptyStr(c.MIMEType, "application/octet-stream")), render.HumanBytes(len(c.Data)), path))
		}
		return lines, nil
	}
}

// partsStatus says where the binary parts went.
func partsStatus(lines []string, err error) string {
	switch {
	case err != nil:
		return "; binary parts not saved: " + backend.MessageOf(err)
	case len(lines) > 0:
		return fmt.Sprintf("; %d binary part(s): %s", len(lines), strings.Join(lines, "; "))
	}
	return ""
}

func firstNonEmptyStr(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// allContents are every content part of the job on show: a result's, a
// read's, or a rendered prompt's messages'.
func (j *job) allContents() []engine.Content {
	switch {
	case j.result != nil:
		return j.result.Content
	case j.contents != nil:
		return j.contents
	case j.prompt != nil:
		all := make([]engine.Content, 0, len(j.prompt.Messages))
		for _, m := range j.prompt.Messages {
			all = append(all, m.Content)
		}
		return all
	}
	return nil
}

// links are the resource links of the job on show.
func (j *job) links() []engine.Content {
	var out []engine.Content
	for _, c := range j.allContents() {
		if c.Type == engine.ContentResourceLink && c.URI != "" {
			out = append(out, c)
		}
	}
	return out
}

// openLinkAction opens one link (the pick dialog's choice).
type openLinkAction struct{ server, uri string }

// openLinks opens the shown job's resource link (a pick list when there
// are several).
func (m *Model) openLinks() tea.Cmd {
	j := m.call.shownJob()
	if j == nil {
		return nil
	}
	links := j.links()
	switch len(links) {
	case 0:
		m.status.set("no resource link here: o opens a result's → links", false)
		return nil
	case 1:
		return m.openLink(openLinkAction{server: j.server, uri: links[0].URI})
	}
	items := make([]string, len(links))
	for i, l := range links {
		items[i] = firstNonEmptyStr(l.Name, "link") + "  " + l.URI
	}
	server := j.server
	m.pushDialog(&dialog.Pick{Title: fmt.Sprintf("Open a resource link (%d)", len(links)), Items: items,
		Chosen: func(i int) dialog.Action { return openLinkAction{server: server, uri: links[i].URI} }})
	return nil
}

// openLink shows the link's server in the resources view and reads the
// linked resource there.
func (m *Model) openLink(a openLinkAction) tea.Cmd {
	for i, r := range m.servers.rows {
		if r.spec.Name == a.server {
			m.setSel(i)
		}
	}
	m.browse.tab, m.browse.cursor, m.browse.offset = tabResources, 0, 0
	cmds := []tea.Cmd{m.ensureBrowse()}
	j, ctx := m.newJob(jobRead, a.server, a.uri, nil)
	cmds = append(cmds, m.readCmd(ctx, j.id, a.server, a.uri))
	return tea.Batch(cmds...)
}

// binaryParts are the parts of a job that s saves: image, audio and blob
// contents, of a result, a read or a rendered prompt.
func (j *job) binaryParts() []engine.Content {
	var out []engine.Content
	for _, c := range j.allContents() {
		if len(c.Data) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// p previews the shown image: off the alternate screen where the terminal
// speaks a graphics protocol (package graphics), else the status says why.

type previewedMsg struct{ err error }

func (previewedMsg) clientMsg() {}

// previewShown previews the first image of the job on show.
func (m *Model) previewShown() tea.Cmd {
	j := m.call.shownJob()
	if j == nil {
		return nil
	}
	var img *engine.Content
	for _, c := range j.binaryParts() {
		if strings.HasPrefix(strings.ToLower(c.MIMEType), "image/") {
			img = &c
			break
		}
	}
	if img == nil {
		m.status.set("no image here to preview", false)
		return nil
	}
	desc := render.ServerLine(img.MIMEType) + " · " + render.HumanBytes(len(img.Data))
	if s := graphics.ImageSize(img.Data); s != "" {
		desc += " · " + s
	}
	proto := m.info.Graphics
	var seq []byte
	if len(img.Data) <= graphics.MaxBytes {
		seq = graphics.Sequence(proto, img.MIMEType, img.Data)
	}
	if seq == nil {
		why := "this terminal speaks no inline-image protocol relavium knows (kitty, iTerm2)"
		switch {
		case len(img.Data) > graphics.MaxBytes:
			why = "it is over 8 MiB"
		case proto == graphics.Kitty:
			why = "the kitty protocol draws PNG only"
		}
		m.status.set("image "+desc+" not previewed: "+why+"; s saves it to a file", false)
		return nil
	}
	return tea.Exec(&graphics.Exec{Title: "image " + desc + " (" + proto + ")", Seq: seq}, func(err error) tea.Msg { return previewedMsg{err: err} })
}

func (m *Model) onPreviewed(msg previewedMsg) {
	if msg.err != nil {
		m.status.set("preview failed: "+msg.err.Error(), true)
	}
}
