package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/loadtest"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/graphics"
	"github.com/relavium/relavium/tui/render"
	"github.com/relavium/relavium/workflow"
)

// A job is one thing the call pane shows: a tool call, a resource read, a
// prompt get or a workflow run. The history is the list of jobs; the pane
// shows one. Only Update changes a job.

type jobKind int

const (
	jobTool jobKind = iota
	jobRead
	jobPrompt
	jobRun
	jobBench
)

func (k jobKind) String() string {
	return [...]string{"call", "read", "prompt", "run", "load"}[k]
}

type jobState int

const (
	jobRunning jobState = iota
	jobDone
	jobFailed
	jobCancelled
)

// maxJobLogs bounds the log lines one job keeps (the newest are kept).
const maxJobLogs = 1000

type logLine struct {
	Level  string `json:"level"`
	Logger string `json:"logger,omitempty"`
	Server string `json:"server"`
	Text   string `json:"text"`
}

type stepLine struct {
	step, tool, state string
	dur               time.Duration
}

type job struct {
	id      string
	kind    jobKind
	tool    engine.ToolDef
	server  string
	title   string
	args    json.RawMessage
	started time.Time
	ended   time.Time
	state   jobState

	progress    engine.Progress
	hasProgress bool
	progressN   int

	logs        []logLine
	droppedLogs int

	result   *engine.ToolResult
	contents []engine.Content
	prompt   *host.PromptResult
	run      *workflow.RunResult
	bench    *loadtest.Report // a load's figures (so far while it runs)
	plan     loadtest.Plan
	runID    string
	steps    []stepLine

	errCode     fault.Code
	errMsg      string
	cancel      context.CancelFunc
	cancelAsked bool

	version   int
	jobClient // log filter, refresh by subscription (clientreq.go)

	cacheW, cacheV int
	cache          []string
	// resultAt is the body line where the outcome (result or error) starts.
	resultAt int
}

func (j *job) touch() { j.version++ }

func (j *job) finished() bool { return j.state != jobRunning }

func (j *job) addLog(l logLine) {
	if len(j.logs) >= maxJobLogs {
		copy(j.logs, j.logs[1:])
		j.logs = j.logs[:len(j.logs)-1]
		j.droppedLogs++
	}
	j.logs = append(j.logs, l)
	j.touch()
}

// fail ends the job with an error.
func (j *job) fail(at time.Time, err error) {
	j.ended = at
	j.state = jobFailed
	j.errCode, j.errMsg = fault.CodeOf(err, ""), render.ServerText(err.Error())
	if j.errCode == failure.CodeCallCancelled || j.errCode == engine.CodeRunCancelled {
		j.state = jobCancelled
	}
	j.cancel = nil
	j.touch()
}

// icon is the job's state glyph.
func (j *job) icon(st *themes.Styles, spin string) string {
	switch j.state {
	case jobRunning:
		return st.Accent.Render(spin)
	case jobDone:
		if j.result != nil && j.result.IsError {
			return st.Error.Render("✗")
		}
		return st.OK.Render("✓")
	case jobCancelled:
		return st.Warn.Render("⊘")
	}
	return st.Error.Render("✗")
}

// elapsed is how long the job ran (so far).
func (j *job) elapsed(now time.Time) time.Duration {
	if j.finished() {
		return j.ended.Sub(j.started)
	}
	return now.Sub(j.started)
}

// body renders everything below the job's live header (arguments, steps,
// logs, result) at width w. It is cached per width and version, so a
// frame costs only the visible lines however large the result is.
func (j *job) body(st *themes.Styles, w int) []string {
	if j.cache != nil && j.cacheW == w && j.cacheV == j.version {
		return j.cache
	}
	var out []string
	add := func(lines ...string) { out = append(out, lines...) }
	if len(j.args) > 0 && string(j.args) != "{}" {
		label := "args "
		if j.kind == jobRun {
			label = "inputs "
		}
		add(render.WrapIndent(st.Muted.Render(label)+render.ServerLine(string(j.args)), w, "     ")...)
	}
	for _, s := range j.steps {
		line := st.Muted.Render("step ") + render.ServerLine(s.step) + " "
		switch s.state {
		case "calling":
			line += st.Accent.Render("→ " + render.ServerLine(s.tool))
		case "ok":
			line += st.OK.Render("✓ "+render.ServerLine(s.tool)) + st.Muted.Render(" "+render.HumanDuration(s.dur))
		case "tool error", "failed":
			line += st.Error.Render("✗ "+render.ServerLine(s.tool)+" "+s.state) + st.Muted.Render(" "+render.HumanDuration(s.dur))
		case "gate":
			line += st.Warn.Render("⏸ gate: " + s.tool)
		case "approved":
			line += st.OK.Render("✓ gate approved")
		case "refused":
			line += st.Error.Render("✗ gate refused")
		}
		add(render.WrapIndent(line, w, "     ")...)
	}
	if j.droppedLogs > 0 {
		add(st.Muted.Render(fmt.Sprintf("… %d earlier log lines not kept", j.droppedLogs)))
	}
	logs, hidden := filterLogs(j.logs, j.logFloor)
	if hidden > 0 {
		add(st.Muted.Render(fmt.Sprintf("… %d log line(s) below %s hidden (v shows more)", hidden, j.logFloor)))
	}
	for _, l := range logs {
		prefix := st.LogLevel(l.Level).Render(fmt.Sprintf("log %-7s", l.Level)) + " "
		if l.Logger != "" {
			prefix += st.Muted.Render(render.ServerLine(l.Logger)) + " "
		}
		add(render.WrapIndent(prefix+st.LogLevel(l.Level).Render(l.Text), w, "            ")...)
	}
	add(j.taskLines(st)...)
	j.resultAt = len(out)
	switch {
	case j.result != nil:
		add(resultLines(st, j.result, w)...)
	case j.contents != nil:
		add(st.OK.Render("◂ contents") + st.Muted.Render(fmt.Sprintf(" · %d part(s)", len(j.contents))))
		add(j.refreshLines(st.Accent.Render)...)
		for _, c := range j.contents {
			add(contentLines(st, c, w, st.Text)...)
		}
	case j.prompt != nil:
		add(promptLines(st, j.prompt, w)...)
	case j.bench != nil:
		add(benchLines(j.bench, w)...)
	case j.run != nil:
		add(st.OK.Render("◂ run completed") + st.Muted.Render(" · outputs"))
		b, _ := json.Marshal(j.run.Outputs)
		add(render.JSONBlock(st, b, w)...)
	}
	if j.state == jobFailed || j.state == jobCancelled {
		style := st.Error
		head := "✗ failed"
		if j.state == jobCancelled {
			style, head = st.Warn, "⊘ cancelled"
		}
		if j.errCode != "" {
			head += " " + string(j.errCode)
		}
		add(style.Render(head))
		for _, l := range strings.Split(j.errMsg, "\n") {
			add(render.WrapIndent("  "+style.Render(l), w, "  ")...)
		}
	}
	j.cache, j.cacheW, j.cacheV = out, w, j.version
	return out
}

// resultLines renders a tool result by content type.
func resultLines(st *themes.Styles, r *engine.ToolResult, w int) []string {
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
		out = append(out, contentLines(st, c, w, body)...)
	}
	if len(r.Structured) > 0 {
		out = append(out, st.Muted.Render("structured content"))
		out = append(out, render.JSONBlock(st, r.Structured, w)...)
	}
	return out
}

// contentLines renders one content part: text wrapped, JSON pretty and
// coloured, media as a labelled size line, resources and links by uri.
func contentLines(st *themes.Styles, c engine.Content, w int, body lipgloss.Style) []string {
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

func promptLines(st *themes.Styles, p *host.PromptResult, w int) []string {
	out := []string{st.OK.Render("◂ prompt") + st.Muted.Render(fmt.Sprintf(" · %d message(s)", len(p.Messages)))}
	if d := render.ServerLine(p.Description); d != "" {
		out = append(out, render.Wrap(st.Muted.Render(d), w)...)
	}
	for _, m := range p.Messages {
		out = append(out, st.Bold.Render(render.ServerLine(m.Role)+":"))
		for _, l := range contentLines(st, m.Content, max(1, w-2), st.Text) {
			out = append(out, "  "+l)
		}
	}
	return out
}
