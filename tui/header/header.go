package header

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Summary is what the header line counts.
type Summary struct {
	Demo           bool   // the demo session (no project, no agent)
	Project, Agent string // where the session runs ("" agent: default)
	// The servers by state: ready, waiting for consent, failed or
	// denied, anything else; Servers is all of them.
	Ready, Pending, Failed, Other, Servers int
	Tools, Skipped                         int // tools listed and refused at discovery
	Calls, Running                         int // jobs, and those not finished
}

// Line is the session summary at width w: where (project or demo, agent)
// on the left; on the right the servers by state as coloured glyphs, the
// tools, and the calls (running ones first). Narrow (under 80 cells) it
// keeps the glyphs and the tools.
func Line(st *themes.Styles, s Summary, w int) string {
	left := st.App.Render("relavium")
	if s.Demo {
		left += st.Muted.Render(" · demo")
	} else {
		left += st.Muted.Render(" · " + s.Project)
		agent := s.Agent
		if agent == "" {
			agent = "default"
		}
		left += st.Muted.Render(" · agent " + agent)
	}
	var parts []string
	glyphs := st.OK.Render(fmt.Sprintf("● %d", s.Ready))
	if s.Pending > 0 {
		glyphs += " " + st.Warn.Render(fmt.Sprintf("⚠ %d", s.Pending))
	}
	if s.Failed > 0 {
		glyphs += " " + st.Error.Render(fmt.Sprintf("✗ %d", s.Failed))
	}
	if s.Other > 0 {
		glyphs += " " + st.Muted.Render(fmt.Sprintf("◌ %d", s.Other))
	}
	calls := render.Counted(s.Calls, "call", "calls")
	if s.Running > 0 {
		calls = st.Accent.Render(fmt.Sprintf("%d running", s.Running)) + st.Header.Render(" · "+calls)
	}
	if w < 80 {
		parts = []string{glyphs, st.Header.Render(fmt.Sprintf("%s · %d skip", render.Counted(s.Tools, "tool", "tools"), s.Skipped))}
	} else {
		parts = []string{glyphs + st.Header.Render(" of "+render.Counted(s.Servers, "server", "servers")),
			st.Header.Render(render.Counted(s.Tools, "tool", "tools") + fmt.Sprintf(" · %d skipped", s.Skipped)), calls}
	}
	right := strings.Join(parts, st.Header.Render(" · "))
	if s.Pending > 0 {
		right += st.Warn.Render(fmt.Sprintf(" · %d pending", s.Pending))
	}
	return render.SpaceBetween(left, right, w)
}
