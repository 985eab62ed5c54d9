package serverinfo

import (
	"fmt"
	"strings"
	"time"

	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/render"
)

// Era is the server dialog's lines that say which protocol era a ready
// connection runs (protocol as negotiated; configured auto: that it was
// negotiated) and what that means for the features that differ between
// eras: elicitation, logs, sampling. Nothing for a server not ready or a
// protocol of no known era.
func Era(st *themes.Styles, protocol, configured string, ready bool, w int) []string {
	e := era.EraOf(protocol)
	if e == nil || !ready {
		return nil
	}
	head := "protocol " + protocol + " · " + e.Name + " era"
	if configured == era.ProtocolAuto {
		head += " (negotiated: protocol = auto)"
	}
	var out []string
	add := func(s string) { out = append(out, render.WrapIndent(s, w, "  ")...) }
	add(st.Accent.Render(render.ServerLine(head)))
	add(st.Muted.Render("elicitation: " + e.Elicitation))
	add(st.Muted.Render("logs: " + e.Logs))
	add(st.Muted.Render("sampling: " + e.Sampling))
	return out
}

// A server of another client's file (.mcp.json, .vscode/mcp.json …) that
// relavium cannot take — a loopback url, a ${VAR} inside a header, an
// envFile — fails only itself: the workbench opens with the file's other
// servers, and lists this one failed, with each problem and its remedy,
// never resolving or connecting it. relavium's own config.toml stays
// all-or-nothing (the command line refuses it before the workbench opens).

// NotAdmittedText is a not-admitted server's error on its row.
const NotAdmittedText = "not admitted from its client file (i: why and the fix)"

// notAdmittedHint says what makes the server connect: the remedy each
// problem names, then a new session (client files are read at start).
const notAdmittedHint = "apply the remedy above (or fix the entry), then open the workbench again: client files are read when it starts"

// NotAdmitted is a not-admitted server's problems in full, each naming
// its remedy, and what to do then.
func NotAdmitted(st *themes.Styles, na *backend.NotAdmitted, w int) []string {
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

// Lock drift on the server row: when a server becomes ready and the
// project has a lock (.relavium/mcp-lock.json, `relavium mcp lock`), the
// row says how many differences `relavium mcp check` would report for it,
// and the details say the first (a tool now claiming read-only first).

// DriftMark is the row's drift mark, put before the row's state text so a
// narrow pane still shows it ("" when there is no lock, or no drift).
func DriftMark(st *themes.Styles, d backend.LockDrift, checked bool) string {
	if !checked || d.Differences == 0 {
		return ""
	}
	return st.Warn.Render(fmt.Sprintf("⚠ drift %d", d.Differences)) + " "
}

// DriftDetail is the details' line for the first difference ("" none).
func DriftDetail(st *themes.Styles, d backend.LockDrift, checked bool) string {
	if !checked || d.Differences == 0 {
		return ""
	}
	return st.Warn.Render(render.ServerLine(fmt.Sprintf("lock drift: %s (relavium mcp check shows all %d)", d.First, d.Differences)))
}

// RetryHint is a failed server's last details line: when it is dialled
// again (attempt n at retryAt, as of now), or that r retries it.
func RetryHint(retryAt time.Time, n int, now time.Time) string {
	if retryAt.IsZero() {
		return "r to retry"
	}
	wait := max(retryAt.Sub(now), 0).Round(time.Second)
	return fmt.Sprintf("reconnecting (attempt %d) in %s · r to retry now", n, render.HumanDuration(wait))
}

// Initialize draws what a server said of itself at initialize: serverInfo,
// capabilities and instructions — the server's own words, said to be,
// and already cleaned (host), sanitized again here.
func Initialize(st *themes.Styles, d host.ServerDetails, iw int) []string {
	var out []string
	add := func(label, v string) {
		if v != "" {
			out = append(out, render.Wrap(st.Muted.Render(label+" ")+render.ServerLine(v), iw)...)
		}
	}
	out = append(out, "", st.Bold.Render("serverInfo")+st.Faint.Render(" · the server's own words"))
	add("name       ", d.Name)
	add("title      ", d.Title)
	add("version    ", d.Version)
	add("description", d.Description)
	add("website    ", d.WebsiteURL)
	for _, ic := range d.Icons {
		add("icon       ", ic)
	}
	add("era        ", d.Protocol)
	caps := strings.Join(d.Capabilities, " · ")
	if caps == "" {
		caps = "(none declared)"
	}
	add("capabilities", caps)
	if d.Instructions != "" {
		out = append(out, st.Muted.Render("instructions"))
		for _, l := range render.SplitLines(render.ServerText(d.Instructions)) {
			out = append(out, render.Wrap("  "+l, iw)...)
		}
		if d.InstructionsCut {
			out = append(out, st.Faint.Render("  … (cut at 8 KiB)"))
		}
	}
	return out
}
