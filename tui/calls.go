package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/loadtest"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
	"github.com/relavium/relavium/tui/resultview"
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
		add(resultview.Step(st, s.step, s.tool, s.state, s.dur, w)...)
	}
	if j.droppedLogs > 0 {
		add(st.Muted.Render(fmt.Sprintf("… %d earlier log lines not kept", j.droppedLogs)))
	}
	logs, hidden := filterLogs(j.logs, j.logFloor)
	if hidden > 0 {
		add(st.Muted.Render(fmt.Sprintf("… %d log line(s) below %s hidden (v shows more)", hidden, j.logFloor)))
	}
	for _, l := range logs {
		add(resultview.Log(st, l.Level, l.Logger, l.Text, w)...)
	}
	if j.isTask {
		add(resultview.Task(st, j.task, j.finished())...)
	}
	j.resultAt = len(out)
	switch {
	case j.result != nil:
		add(resultview.Result(st, j.result, w)...)
	case j.contents != nil:
		add(st.OK.Render("◂ contents") + st.Muted.Render(fmt.Sprintf(" · %d part(s)", len(j.contents))))
		add(j.refreshLines(st.Accent.Render)...)
		for _, c := range j.contents {
			add(resultview.Content(st, c, w, st.Text)...)
		}
	case j.prompt != nil:
		add(resultview.Prompt(st, j.prompt, w)...)
	case j.bench != nil:
		add(resultview.Bench(j.bench, w)...)
	case j.run != nil:
		add(st.OK.Render("◂ run completed") + st.Muted.Render(" · outputs"))
		b, _ := json.Marshal(j.run.Outputs)
		add(render.JSONBlock(st, b, w)...)
	}
	if j.state == jobFailed || j.state == jobCancelled {
		add(resultview.Failure(st, j.state == jobCancelled, string(j.errCode), j.errMsg, w)...)
	}
	j.cache, j.cacheW, j.cacheV = out, w, j.version
	return out
}
