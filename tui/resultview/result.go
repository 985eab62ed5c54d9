package resultview

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/loadtest"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/graphics"
	"github.com/relavium/relavium/tui/render"
)

// Result draws a tool result by content type: a head (result or tool
// error, its size and kinds), each part, then structured content.
func Result(st *themes.Styles, r *engine.ToolResult, w int) []string {
	size := 0
	var kinds []string
	seen := map[string]bool{}
	for _, c := range r.Content {
		size += len(c.Text) + len(c.Data)
		k := string(c.Type)
		if c.Type == engine.ContentText && render.LooksLikeJSON(c.Text) {
			k = "json"
		}
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	if len(r.Structured) > 0 && !seen["structured"] {
		kinds = append(kinds, "structured")
	}
	meta := st.Muted.Render(fmt.Sprintf(" %s · %s", render.HumanBytes(size), strings.Join(kinds, ", ")))
	var out []string
	body := st.Text
	if r.IsError {
		out = append(out, st.Error.Render("◂ tool error (isError)")+meta)
		body = st.Error
	} else {
		out = append(out, st.OK.Render("◂ result")+meta)
	}
	for _, c := range r.Content {
		out = append(out, Content(st, c, w, body)...)
	}
	if len(r.Structured) > 0 {
		out = append(out, st.Muted.Render("structured content"))
		out = append(out, render.JSONBlock(st, r.Structured, w)...)
	}
	return out
}

// Content draws one content part: text wrapped, JSON pretty and
// coloured, media as a labelled size line, resources and links by uri.
func Content(st *themes.Styles, c engine.Content, w int, body lipgloss.Style) []string {
	switch c.Type {
	case engine.ContentText:
		if render.LooksLikeJSON(c.Text) {
			return render.JSONBlock(st, []byte(c.Text), w)
		}
		return render.StyledWrap(body, render.ServerText(c.Text), w)
	case engine.ContentImage, engine.ContentAudio:
		glyph := "▣"
		if c.Type == engine.ContentAudio {
			glyph = "♪"
		}
		size := ""
		if s := graphics.ImageSize(c.Data); s != "" && c.Type == engine.ContentImage {
			size = " · " + s
		}
		return render.WrapIndent(st.Accent.Render(glyph+" "+string(c.Type))+st.Muted.Render(" · "+render.ServerLine(c.MIMEType)+size+" · "+render.HumanBytes(len(c.Data))+" (not shown)"), w, "  ")
	case engine.ContentResource:
		head := st.Accent.Render("◆ resource ") + render.ServerLine(c.URI)
		if c.MIMEType != "" {
			head += st.Muted.Render(" (" + render.ServerLine(c.MIMEType) + ")")
		}
		if len(c.Data) > 0 {
			return render.WrapIndent(head+st.Muted.Render(" · blob "+render.HumanBytes(len(c.Data))), w, "  ")
		}
		out := render.WrapIndent(head+st.Muted.Render(" · "+render.HumanBytes(len(c.Text))), w, "  ")
		if render.LooksLikeJSON(c.Text) {
			return append(out, render.JSONBlock(st, []byte(c.Text), w)...)
		}
		return append(out, render.StyledWrap(body, render.ServerText(c.Text), w)...)
	case engine.ContentResourceLink:
		line := st.Accent.Render("→ link ") + render.ServerLine(c.Name) + " " + st.Muted.Render(render.ServerLine(c.URI))
		if c.MIMEType != "" {
			line += st.Muted.Render(" (" + render.ServerLine(c.MIMEType) + ")")
		}
		return render.WrapIndent(line, w, "       ")
	}
	return []string{st.Muted.Render("(" + render.ServerLine(string(c.Type)) + " content not shown)")}
}

// Prompt draws a prompt get: its description, then each message by role.
func Prompt(st *themes.Styles, p *host.PromptResult, w int) []string {
	out := []string{st.OK.Render("◂ prompt") + st.Muted.Render(fmt.Sprintf(" · %d message(s)", len(p.Messages)))}
	if d := render.ServerLine(p.Description); d != "" {
		out = append(out, render.Wrap(st.Muted.Render(d), w)...)
	}
	for _, m := range p.Messages {
		out = append(out, st.Bold.Render(render.ServerLine(m.Role)+":"))
		for _, l := range Content(st, m.Content, max(1, w-2), st.Text) {
			out = append(out, "  "+l)
		}
	}
	return out
}

// Bench draws a load's figures and chart at width w.
func Bench(rep *loadtest.Report, w int) []string {
	var b strings.Builder
	_ = rep.Draw(&b, loadtest.Render{Width: w, Rich: true})
	var out []string
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		// The summary's lines are written for 80 columns; the pane may be
		// narrower: they wrap under their label, never cut.
		out = append(out, render.WrapIndent(l, w, "            ")...)
	}
	return out
}

// Step is a workflow step's line: calling its tool, done (ok, a tool
// error, failed) with its duration, a gate waiting, approved or refused.
func Step(st *themes.Styles, step, tool, state string, dur time.Duration, w int) []string {
	line := st.Muted.Render("step ") + render.ServerLine(step) + " "
	switch state {
	case "calling":
		line += st.Accent.Render("→ " + render.ServerLine(tool))
	case "ok":
		line += st.OK.Render("✓ "+render.ServerLine(tool)) + st.Muted.Render(" "+render.HumanDuration(dur))
	case "tool error", "failed":
		line += st.Error.Render("✗ "+render.ServerLine(tool)+" "+state) + st.Muted.Render(" "+render.HumanDuration(dur))
	case "gate":
		line += st.Warn.Render("⏸ gate: " + tool)
	case "approved":
		line += st.OK.Render("✓ gate approved")
	case "refused":
		line += st.Error.Render("✗ gate refused")
	}
	return render.WrapIndent(line, w, "     ")
}

// Log is one log line of a job: its level, its logger, its text (the
// text cleaned already; the logger here).
func Log(st *themes.Styles, level, logger, text string, w int) []string {
	prefix := st.LogLevel(level).Render(fmt.Sprintf("log %-7s", level)) + " "
	if logger != "" {
		prefix += st.Muted.Render(render.ServerLine(logger)) + " "
	}
	return render.WrapIndent(prefix+st.LogLevel(level).Render(text), w, "            ")
}

// Failure is a failed or cancelled job's end: its code and its message,
// each line wrapped.
func Failure(st *themes.Styles, cancelled bool, code, msg string, w int) []string {
	style := st.Error
	head := "✗ failed"
	if cancelled {
		style, head = st.Warn, "⊘ cancelled"
	}
	if code != "" {
		head += " " + code
	}
	out := []string{style.Render(head)}
	for _, l := range strings.Split(msg, "\n") {
		out = append(out, render.WrapIndent("  "+style.Render(l), w, "  ")...)
	}
	return out
}

// Task says where a job called as a task is: being started, or the
// task's id, status and message as last polled (and, while it runs, that
// c cancels it at the server). Nothing once a job that got no task ended:
// the server refused it, or ran it at once.
func Task(st *themes.Styles, task *host.Task, finished bool) []string {
	if task == nil {
		if finished {
			return nil
		}
		return []string{st.Muted.Render("task: asking the server to start it…")}
	}
	line := "task " + render.ServerLine(task.TaskID) + " · " + render.ServerLine(task.Status)
	if task.StatusMessage != "" {
		line += " — " + render.ServerLine(task.StatusMessage)
	}
	if !finished {
		line += st.Muted.Render(" (c cancels it at the server)")
	}
	return []string{st.Accent.Render(line)}
}
