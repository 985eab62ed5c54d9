package tui

import (
	"strings"

	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/render"
)

// A server of another client's file (.mcp.json, .vscode/mcp.json …) that
// relavium cannot take — a loopback url, a ${VAR} inside a header, an
// envFile — fails only itself: the workbench opens with the file's other
// servers, and lists this one failed, with each problem and its remedy,
// never resolving or connecting it. relavium's own config.toml stays
// all-or-nothing (the command line refuses it before the workbench opens).

// notAdmittedText is a not-admitted server's error on its row.
const notAdmittedText = "not admitted from its client file (i: why and the fix)"

// notAdmittedHint says what makes the server connect: the remedy each
// problem names, then a new session (client files are read at start).
const notAdmittedHint = "apply the remedy above (or fix the entry), then open the workbench again: client files are read when it starts"

// notAdmitted reports whether r is a server that was not admitted, and
// says on the status line that it cannot be connected as it stands.
func (m *Model) notAdmitted(r *serverRow) bool {
	if r.spec.NotAdmitted == nil {
		return false
	}
	m.status.set(r.spec.Name+" was not admitted ("+string(r.spec.NotAdmitted.Code)+"): i says why and the fix", true)
	return true
}

// notAdmittedDetails are a not-admitted server's problems in full, each
// naming its remedy, and what to do then.
func (p *serversPane) notAdmittedDetails(na *backend.NotAdmitted, w int) []string {
	st := p.st
	var out []string
	add := func(s string) {
		for i, l := range render.WrapPath(s, max(1, w-2)) {
			if i > 0 {
				l = "  " + l
			}
			out = append(out, l)
		}
	}
	add(st.Error.Render(strings.TrimSpace(string(na.Code) + " not admitted")))
	for _, pr := range na.Problems {
		add(st.Error.Render(render.ServerLine(pr)))
	}
	add(st.Muted.Render(notAdmittedHint))
	return out
}

// notAdmitted reports whether the named server was not admitted.
func (p *serversPane) notAdmitted(name string) bool {
	r := p.byName(name)
	return r != nil && r.spec.NotAdmitted != nil
}
