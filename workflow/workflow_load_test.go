package workflow

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/relavium/relavium/authored"
)

// project writes files (relative to .relavium/workflows) into a temp project.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	wd := WorkflowDir(dir)
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(wd, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func problemsOf(t *testing.T, err error) []authored.Problem {
	t.Helper()
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("want *ProblemsError, got %T %v", err, err)
	}
	if pe.Code() != CodeWorkflowInvalid || pe.ExitCode() != 2 {
		t.Fatalf("code %s exit %d", pe.Code(), pe.ExitCode())
	}
	return pe.Problems
}

const okHead = "id: w\nside_effect: read\n"

// One case per authored rule: the exact line, column and field, and the
// heart of the message.
func TestWorkflowRules(t *testing.T) {
	cases := []struct {
		rule      string
		yaml      string
		line, col int
		field     string
		msg       string
	}{
		{"yaml syntax", "id: w\nside_effect: [read\n", 2, 14, "", "YAML"},
		{"empty file", "", 1, 1, "", "empty"},
		{"one document", okHead + "steps: [{id: a, gate: ok}]\n---\nid: x\n", 4, 1, "", "exactly one YAML document"},
		{"no anchors", okHead + "steps:\n  - &s {id: a, gate: ok}\n", 4, 5, "", "anchors and aliases"},
		{"no tags", okHead + "steps:\n  - id: a\n    gate: !!str ok\n", 5, 11, "", "tags"},
		{"no aliases", okHead + "steps:\n  - {id: a, gate: ok}\n  - *s\n", 5, 5, "", "anchors and aliases"},
		{"no merge keys", okHead + "steps:\n  - <<: {id: a}\n    gate: ok\n", 4, 5, "", "merge keys"},
		{"keys are plain strings", okHead + "steps: [{id: a, gate: ok}]\n1: x\n", 4, 1, "", "plain string"},
		{"no escape that names no character", okHead + "steps: [{id: a, gate: \"\\udc00\"}]\n", 3, 23, "", "surrogate"},
		{"valid UTF-8", okHead + "steps: [{id: a, gate: \"\xff\"}]\n", 1, 1, "", "UTF-8"},
		{"top level is a mapping", "- 1\n", 1, 1, "", "must be a mapping"},
		{"unknown top key", okHead + "stepz: []\nsteps: [{id: a, gate: ok}]\n", 3, 1, "stepz", `unknown key "stepz"`},
		{"id required", "side_effect: read\nsteps: [{id: a, gate: ok}]\n", 1, 1, "id", "id is required"},
		{"id equals file name", "id: other\nside_effect: read\nsteps: [{id: a, gate: ok}]\n", 1, 5, "id", "must equal the file name"},
		{"id charset", "id: W!\nside_effect: read\nsteps: [{id: a, gate: ok}]\n", 1, 5, "id", "not a workflow id"},
		{"id is a string", "id: [w]\nside_effect: read\nsteps: [{id: a, gate: ok}]\n", 1, 5, "id", "must be a string"},
		{"side_effect required", "id: w\nsteps: [{id: a, gate: ok}]\n", 1, 1, "side_effect", "side_effect is required"},
		{"side_effect vocabulary", "id: w\nside_effect: dangerous\nsteps: [{id: a, gate: ok}]\n", 2, 14, "side_effect", "not a side effect"},
		{"trigger type vocabulary", okHead + "trigger: {type: cron}\nsteps: [{id: a, gate: ok}]\n", 3, 17, "trigger.type", "not a trigger"},
		{"trigger keys", okHead + "trigger: {type: manual, every: 5m}\nsteps: [{id: a, gate: ok}]\n", 3, 25, "trigger.every", "unknown key"},
		{"trigger needs type", okHead + "trigger: {}\nsteps: [{id: a, gate: ok}]\n", 3, 10, "trigger.type", "needs a type"},
		{"inline servers refused", okHead + "mcp_servers:\n  - {id: gh, transport: stdio, command: gh}\nsteps: [{id: a, gate: ok}]\n", 4, 6, "mcp_servers[0].id", "inline server entries are not supported"},
		{"inline server with a protocol refused", okHead + "mcp_servers:\n  - {protocol: auto, transport: http, url: \"https://x.example/mcp\"}\nsteps: [{id: a, gate: ok}]\n", 4, 6, "mcp_servers[0].protocol", "inline server entries are not supported"},
		{"protocol beside a ref", okHead + "mcp_servers:\n  - {ref: gh, protocol: \"2026-07-28\"}\nsteps: [{id: a, gate: ok}]\n", 4, 15, "mcp_servers[0].protocol", "cannot sit beside ref"},
		{"a connection key beside a ref", okHead + "mcp_servers:\n  - {ref: gh, headers: {A: b}}\nsteps: [{id: a, gate: ok}]\n", 4, 15, "mcp_servers[0].headers", "set headers there"},
		{"server ref required", okHead + "mcp_servers:\n  - {tools_allowlist: [a]}\nsteps: [{id: a, gate: ok}]\n", 4, 6, "mcp_servers[0].ref", "needs ref"},
		{"server ref unique", okHead + "mcp_servers:\n  - {ref: gh}\n  - {ref: gh}\nsteps: [{id: a, gate: ok}]\n", 5, 11, "mcp_servers[1].ref", "already referenced at 4:11"},
		{"server ref keys", okHead + "mcp_servers:\n  - {ref: gh, tools: [a]}\nsteps: [{id: a, gate: ok}]\n", 4, 15, "mcp_servers[0].tools", "unknown key"},
		{"allowlist is a list", okHead + "mcp_servers:\n  - {ref: gh, tools_allowlist: a}\nsteps: [{id: a, gate: ok}]\n", 4, 32, "mcp_servers[0].tools_allowlist", "must be a list"},
		{"allowlist unique", okHead + "mcp_servers:\n  - {ref: gh, tools_allowlist: [a, a]}\nsteps: [{id: a, gate: ok}]\n", 4, 36, "mcp_servers[0].tools_allowlist[1]", "listed twice"},
		{"input name required", okHead + "inputs:\n  - {type: string}\nsteps: [{id: a, gate: ok}]\n", 4, 6, "inputs[0].name", "needs a name"},
		{"input name charset", okHead + "inputs:\n  - {name: 1x, type: string}\nsteps: [{id: a, gate: ok}]\n", 4, 12, "inputs[0].name", "not an input name"},
		{"input name unique", okHead + "inputs:\n  - {name: x, type: string}\n  - {name: x, type: integer}\nsteps: [{id: a, gate: ok}]\n", 5, 12, "inputs[1].name", "already declared at 4:12"},
		{"input name confirm is reserved", okHead + "inputs:\n  - {name: confirm, type: string}\nsteps: [{id: a, gate: ok}]\n", 4, 12, "inputs[0].name", "reserved"},
		{"input type required", okHead + "inputs:\n  - {name: x}\nsteps: [{id: a, gate: ok}]\n", 4, 6, "inputs[0].type", "needs a type"},
		{"input type vocabulary", okHead + "inputs:\n  - {name: x, type: int}\nsteps: [{id: a, gate: ok}]\n", 4, 21, "inputs[0].type", "not an input type"},
		{"input keys", okHead + "inputs:\n  - {name: x, type: string, optional: true}\nsteps: [{id: a, gate: ok}]\n", 4, 29, "inputs[0].optional", "unknown key"},
		{"input default fits type", okHead + "inputs:\n  - {name: x, type: integer, default: ten}\nsteps: [{id: a, gate: ok}]\n", 4, 39, "inputs[0].default", "does not fit"},
		{"input default fits enum", okHead + "inputs:\n  - {name: x, type: string, enum: [a, b], default: c}\nsteps: [{id: a, gate: ok}]\n", 4, 52, "inputs[0].default", "does not fit"},
		{"input enum fits type", okHead + "inputs:\n  - {name: x, type: integer, enum: [1, two]}\nsteps: [{id: a, gate: ok}]\n", 4, 36, "inputs[0].enum", "enum value \"two\" is not an integer"},
		{"input enum non-empty", okHead + "inputs:\n  - {name: x, type: integer, enum: []}\nsteps: [{id: a, gate: ok}]\n", 4, 36, "inputs[0].enum", "non-empty list"},
		{"required excludes default", okHead + "inputs:\n  - {name: x, type: integer, required: true, default: 1}\nsteps: [{id: a, gate: ok}]\n", 4, 46, "inputs[0].default", "cannot have a default"},
		{"required is boolean", okHead + "inputs:\n  - {name: x, type: integer, required: yes please}\nsteps: [{id: a, gate: ok}]\n", 4, 40, "inputs[0].required", "true or false"},
		{"steps required", okHead, 1, 1, "steps", "steps is required"},
		{"steps non-empty", okHead + "steps: []\n", 3, 8, "steps", "non-empty list"},
		{"step is a mapping", okHead + "steps:\n  - gate\n", 4, 5, "steps[0]", "must be a mapping"},
		{"step id required", okHead + "steps:\n  - gate: ok\n", 4, 5, "steps[0].id", "needs an id"},
		{"step id charset", okHead + "steps:\n  - id: a.b\n    gate: ok\n", 4, 9, "steps[0].id", "not a step id"},
		{"step id unique", okHead + "steps:\n  - {id: a, gate: ok}\n  - {id: a, gate: ok}\n", 5, 10, "steps[1].id", "already used at 4:10"},
		{"step keys", okHead + "steps:\n  - {id: a, gate: ok, when: x}\n", 4, 23, "steps[0].when", "unknown key"},
		{"tool or gate, not both", okHead + "steps:\n  - {id: a, tool: mcp_s_t, gate: ok}\n", 4, 28, "steps[0].gate", "not both"},
		{"tool or gate required", okHead + "steps:\n  - {id: a}\n", 4, 6, "steps[0]", "needs tool:"},
		{"tool is literal", okHead + "steps:\n  - {id: a, tool: \"mcp_{{inputs.x}}\"}\n", 4, 19, "steps[0].tool", "literal name"},
		{"args is a mapping", okHead + "steps:\n  - {id: a, tool: mcp_s_t, args: [1]}\n", 4, 34, "steps[0].args", "must be a mapping"},
		{"args belong to tools", okHead + "steps:\n  - {id: a, gate: ok, args: {}}\n", 4, 23, "steps[0].args", "belongs to tool steps"},
		{"timeout_ms bounds", okHead + "steps:\n  - {id: a, tool: mcp_s_t, timeout_ms: 0}\n", 4, 40, "steps[0].timeout_ms", "from 1 to 600000"},
		{"continue_on_error is boolean", okHead + "steps:\n  - {id: a, tool: mcp_s_t, continue_on_error: maybe}\n", 4, 47, "steps[0].continue_on_error", "true or false"},
		{"gate non-empty", okHead + "steps:\n  - {id: a, gate: \"  \"}\n", 4, 19, "steps[0].gate", "needs a question"},
		{"mcp_call needs server", okHead + "steps:\n  - id: a\n    tool: mcp_call\n    args: {tool: t}\n", 6, 12, "steps[0].args.server", "mcp_call needs server"},
		{"mcp_call keys", okHead + "steps:\n  - id: a\n    tool: mcp_call\n    args: {server: s, tool: t, args: {}}\n", 6, 32, "steps[0].args.args", "unknown key"},
		{"mcp_call needs args", okHead + "steps:\n  - id: a\n    tool: mcp_call\n", 5, 5, "steps[0].args", "mcp_call needs args"},
		{"template closed", okHead + "steps:\n  - {id: a, tool: mcp_s_t, args: {q: \"{{inputs.x\"}}\n", 4, 38, "steps[0].args.q", "unclosed"},
		{"template is a lookup", okHead + "inputs: [{name: x, type: string}]\nsteps:\n  - {id: a, tool: mcp_s_t, args: {q: \"{{ inputs.x | upper }}\"}}\n", 5, 38, "steps[0].args.q", "not a lookup"},
		{"template root", okHead + "steps:\n  - {id: a, tool: mcp_s_t, args: {q: \"{{env.HOME}}\"}}\n", 4, 38, "steps[0].args.q", "unknown root"},
		{"no secrets in args", okHead + "steps:\n  - {id: a, tool: mcp_s_t, args: {token: \"{{secrets.gh}}\"}}\n", 4, 42, "steps[0].args.token", "secrets are never interpolated"},
		{"no secrets in gates", okHead + "steps:\n  - {id: a, gate: \"token {{secrets.gh}}?\"}\n", 4, 19, "steps[0].gate", "secrets are never interpolated"},
		{"input declared", okHead + "steps:\n  - {id: a, tool: mcp_s_t, args: {q: \"{{inputs.repo}}\"}}\n", 4, 38, "steps[0].args.q", `no input "repo"`},
		{"input path only into objects", okHead + "inputs: [{name: x, type: string}]\nsteps:\n  - {id: a, tool: mcp_s_t, args: {q: \"{{inputs.x.y}}\"}}\n", 5, 38, "steps[0].args.q", "only object and array inputs"},
		{"step exists", okHead + "steps:\n  - {id: a, tool: mcp_s_t, args: {q: \"{{steps.zz.text}}\"}}\n", 4, 38, "steps[0].args.q", `no step "zz"`},
		{"step is earlier", okHead + "steps:\n  - {id: a, tool: mcp_s_t, args: {q: \"{{steps.b.text}}\"}}\n  - {id: b, tool: mcp_s_t}\n", 4, 38, "steps[0].args.q", "runs later"},
		{"step is not itself", okHead + "steps:\n  - {id: a, tool: mcp_s_t, args: {q: \"{{steps.a.text}}\"}}\n", 4, 38, "steps[0].args.q", "its own result"},
		{"gates have no result", okHead + "steps:\n  - {id: g, gate: ok}\n  - {id: a, tool: mcp_s_t, args: {q: \"{{steps.g.text}}\"}}\n", 5, 38, "steps[1].args.q", "is a gate"},
		{"step fields", okHead + "steps:\n  - {id: a, tool: mcp_s_t}\n  - {id: b, tool: mcp_s_t, args: {q: \"{{steps.a.output}}\"}}\n", 5, 38, "steps[1].args.q", "offers .text, .structured"},
		{"text takes no path", okHead + "steps:\n  - {id: a, tool: mcp_s_t}\n  - {id: b, tool: mcp_s_t, args: {q: \"{{steps.a.text.x}}\"}}\n", 5, 38, "steps[1].args.q", "takes no path"},
		{"no templates in keys", okHead + "steps:\n  - {id: a, tool: mcp_s_t, args: {\"{{inputs.x}}\": 1}}\n", 4, 35, "steps[0].args.{{inputs.x}}", "not allowed in keys"},
		{"outputs is a mapping", okHead + "steps: [{id: a, gate: ok}]\noutputs: [a]\n", 4, 10, "outputs", "must be a mapping"},
		{"output name charset", okHead + "steps: [{id: a, gate: ok}]\noutputs:\n  \"a b\": x\n", 5, 3, "outputs.a b", "not an output name"},
		{"outputs read real steps", okHead + "steps: [{id: a, gate: ok}]\noutputs:\n  r: \"{{steps.b.text}}\"\n", 5, 6, "outputs.r", `no step "b"`},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			dir := project(t, map[string]string{"w.yaml": c.yaml})
			_, err := LoadWorkflow(dir, "w")
			ps := problemsOf(t, err)
			file := filepath.Join(WorkflowDir(dir), "w.yaml")
			for _, p := range ps {
				if p.Line == c.line && p.Col == c.col && p.Field == c.field && strings.Contains(p.Message, c.msg) {
					if p.File != file {
						t.Fatalf("problem names file %q, want %q", p.File, file)
					}
					return
				}
			}
			t.Fatalf("no problem %d:%d %s %q among:\n%s", c.line, c.col, c.field, c.msg, render(ps))
		})
	}
}

func render(ps []authored.Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("  " + p.String() + "\n")
	}
	return b.String()
}

func TestWorkflowProblemsComeAllAtOnce(t *testing.T) {
	src := "id: nope\nside_effect: sideways\nbogus: 1\nsteps:\n  - {id: a, tool: mcp_s_t, args: {k: \"{{secrets.x}}\"}}\n  - {id: a, gate: ok}\n"
	dir := project(t, map[string]string{"w.yaml": src})
	_, err := LoadWorkflow(dir, "w")
	ps := problemsOf(t, err)
	if len(ps) != 5 {
		t.Fatalf("want 5 problems (id, side_effect, bogus, secrets, duplicate step), got:\n%s", render(ps))
	}
	for i := 1; i < len(ps); i++ {
		if ps[i].Line < ps[i-1].Line {
			t.Fatalf("problems not in file order:\n%s", render(ps))
		}
	}
	var pe *ProblemsError
	errors.As(err, &pe)
	var human strings.Builder
	if err := pe.WriteHuman(&human); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(human.String(), filepath.Join(WorkflowDir(dir), "w.yaml")+":2:14: side_effect: ") {
		t.Fatalf("human rendering is not compiler-style:\n%s", human.String())
	}
}

func TestLoadWorkflowsListsGoodAndReportsBad(t *testing.T) {
	dir := project(t, map[string]string{
		"b.yaml":    "id: b\nside_effect: read\nsteps: [{id: s, gate: ok}]\n",
		"a.yaml":    "id: a\nside_effect: write\ntrigger: {type: mcp_call}\nsteps: [{id: s, gate: ok}]\n",
		"bad.yaml":  "id: bad\nsteps: [{id: s, gate: ok}]\n",
		"old.yml":   "id: old\n",
		"README.md": "not a workflow",
	})
	ws, err := LoadWorkflows(dir)
	if len(ws) != 2 || ws[0].ID != "a" || ws[1].ID != "b" {
		t.Fatalf("good workflows = %v", ws)
	}
	if ws[0].Trigger != TriggerMCPCall || ws[1].Trigger != TriggerManual {
		t.Fatalf("triggers %s %s", ws[0].Trigger, ws[1].Trigger)
	}
	ps := problemsOf(t, err)
	if len(ps) != 2 || !strings.HasSuffix(ps[0].File, "bad.yaml") || !strings.HasSuffix(ps[1].File, "old.yml") {
		t.Fatalf("problems:\n%s", render(ps))
	}
	if !strings.Contains(ps[1].Message, "rename to old.yaml") {
		t.Fatalf(".yml message: %s", ps[1].Message)
	}
	// No workflow directory: no workflows, no error.
	ws, err = LoadWorkflows(t.TempDir())
	if ws != nil || err != nil {
		t.Fatalf("missing dir: %v %v", ws, err)
	}
}

func TestLoadWorkflowNotFoundAndBadID(t *testing.T) {
	dir := project(t, map[string]string{"hello.yaml": "id: hello\nside_effect: read\nsteps: [{id: s, gate: ok}]\n"})
	_, err := LoadWorkflow(dir, "nope")
	codeIs(t, err, CodeWorkflowNotFound)
	if !strings.Contains(err.Error(), "workflows: hello") {
		t.Fatalf("does not list what exists: %v", err)
	}
	for _, id := range []string{"../etc/passwd", "Hello", "", "a b"} {
		_, err = LoadWorkflow(dir, id)
		codeIs(t, err, CodeWorkflowID)
		if ExitOf(err) != 2 {
			t.Fatalf("bad id exit %d", ExitOf(err))
		}
	}
}

func ExitOf(err error) int {
	var e interface{ ExitCode() int }
	if errors.As(err, &e) {
		return e.ExitCode()
	}
	return 1
}

func TestWorkflowLoadsTheDesignExample(t *testing.T) {
	src := `id: close-stale              # [a-z0-9_-], equals the file name
description: Close stale issues
trigger: {type: mcp_call}
side_effect: destructive
mcp_servers: [{ref: github}]
inputs:
  - {name: repo, type: string, required: true, description: "owner/name"}
  - {name: days, type: integer, default: 30}
steps:
  - id: find
    tool: mcp_github_search_issues
    args: {q: "repo:{{inputs.repo}} is:open updated:<{{inputs.days}}d"}
  - id: approve
    gate: "Close {{steps.find.structured.total_count}} issues in {{inputs.repo}}?"
  - id: close
    tool: mcp_github_close_issues
    args: {ids: "{{steps.find.structured.ids}}"}
outputs:
  closed: "{{steps.close.text}}"
`
	dir := project(t, map[string]string{"close-stale.yaml": src})
	w, err := LoadWorkflow(dir, "close-stale")
	if err != nil {
		t.Fatal(err)
	}
	if w.ID != "close-stale" || w.SideEffect != SideEffectDestructive || w.Trigger != TriggerMCPCall ||
		len(w.Servers) != 1 || w.Servers[0].Ref != "github" || w.Servers[0].Pos.Line != 5 ||
		len(w.Steps) != 3 || w.Steps[1].Kind() != StepGate || len(w.Outputs) != 1 {
		t.Fatalf("loaded %+v", w)
	}
	if !w.RequiresConfirmation() {
		t.Fatal("a destructive workflow with a gate must require confirmation")
	}
	want := `{"type":"object","properties":{"repo":{"type":"string","description":"owner/name"},"days":{"type":"integer","default":30}},` +
		`"$schema":"https://json-schema.org/draft/2020-12/schema","description":"Close stale issues",` +
		`"required":["repo"],"additionalProperties":false}`
	if got := string(w.InputSchema()); got != want {
		t.Fatalf("input schema\n got %s\nwant %s", got, want)
	}
	var anyJSON map[string]any
	if err := json.Unmarshal(w.InputSchema(), &anyJSON); err != nil {
		t.Fatal(err)
	}
}

// The fixtures the end-to-end tests run all load.
func TestTestdataWorkflowsLoad(t *testing.T) {
	ws, err := LoadWorkflows(filepath.Join("..", "testdata", "workflows", "project"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 6 {
		t.Fatalf("%d workflows", len(ws))
	}
}

// A workflow file that is a FIFO (or a symlink to a device) in a hostile
// checkout is refused as an authored problem; opening it never waits for a
// writer, so workflow ls, run and mcp serve cannot hang on it.
func TestWorkflowFileThatIsAFIFOIsRefused(t *testing.T) {
	dir := project(t, map[string]string{"ok.yaml": "id: ok\nside_effect: read\nsteps:\n  - {id: g, gate: go?}\n"})
	if err := syscall.Mkfifo(filepath.Join(WorkflowDir(dir), "pipe.yaml"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(WorkflowDir(dir), "dev.yaml")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := LoadWorkflows(dir); done <- err }()
	select {
	case err := <-done:
		var pe *ProblemsError
		if !errors.As(err, &pe) || pe.ExitCode() != 2 {
			t.Fatalf("err = %v", err)
		}
		text := render(pe.Problems)
		for _, want := range []string{"pipe.yaml", "dev.yaml", "not a regular file"} {
			if !strings.Contains(text, want) {
				t.Errorf("problems lack %q:\n%s", want, text)
			}
		}
	case <-time.After(30 * time.Second):
		// Unblock the open so the goroutine can end, then fail.
		if f, err := os.OpenFile(filepath.Join(WorkflowDir(dir), "pipe.yaml"), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		<-done
		t.Fatal("loading the workflows hung on the FIFO")
	}
}
