package workflow

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/regularfile"

	"github.com/relavium/relavium/authored"
)

// maxWorkflowBytes bounds a workflow file; a larger one is refused unread.
const maxWorkflowBytes = 1 << 20

// WorkflowDir is where a project's workflows live.
func WorkflowDir(projectDir string) string {
	return filepath.Join(projectDir, ".relavium", "workflows")
}

// LoadWorkflows loads every .relavium/workflows/*.yaml of the project, in id
// order. A missing directory is no workflows. It returns every workflow that
// loaded and, when any file did not, a *ProblemsError (E600, exit 2) listing
// every problem of every file at once.
func LoadWorkflows(projectDir string) ([]*Workflow, error) {
	dir := WorkflowDir(projectDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, problemsError(CodeWorkflowInvalid, "cannot read the workflow directory", []authored.Problem{{Pos: authored.Pos{File: dir}, Message: err.Error()}})
	}
	var out []*Workflow
	var problems []authored.Problem
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(dir, name)
		switch ext := filepath.Ext(name); {
		case ext == ".yml":
			problems = append(problems, authored.Problem{Pos: authored.Pos{File: path, Line: 1, Col: 1}, Field: "file",
				Message: "workflow files end in .yaml: rename to " + strings.TrimSuffix(name, ext) + ".yaml"})
			continue
		case ext != ".yaml" || strings.HasPrefix(name, "."):
			continue
		}
		w, ps := loadWorkflowFile(path, strings.TrimSuffix(name, ".yaml"))
		problems = append(problems, ps...)
		if w != nil {
			out = append(out, w)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	if len(problems) > 0 {
		authored.Problems(problems).Sort()
		return out, problemsError(CodeWorkflowInvalid, "invalid workflow files", problems)
	}
	return out, nil
}

// LoadWorkflow loads .relavium/workflows/<id>.yaml. A malformed id is E602,
// a missing file E601 (naming the workflows that exist), a file that breaks
// a rule E600 with every problem; all exit 2.
func LoadWorkflow(projectDir, id string) (*Workflow, error) {
	if !workflowIDPattern.MatchString(id) {
		return nil, &engine.Error{Base: fault.Base{ErrCode: CodeWorkflowID, Exit: fault.ExitUsage, Msg: fmt.Sprintf("%q is not a workflow id: ids are 1-64 of a-z, 0-9, _ and - (the file name without .yaml)", id)}}
	}
	path := filepath.Join(WorkflowDir(projectDir), id+".yaml")
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, &engine.Error{Base: fault.Base{ErrCode: CodeWorkflowNotFound, Exit: fault.ExitUsage, Msg: fmt.Sprintf("no workflow %q: %s does not exist%s", id, path, available(projectDir))}}
	}
	w, ps := loadWorkflowFile(path, id)
	if len(ps) > 0 {
		return nil, problemsError(CodeWorkflowInvalid, "invalid workflow "+id, ps)
	}
	return w, nil
}

func available(projectDir string) string {
	entries, err := os.ReadDir(WorkflowDir(projectDir))
	if err != nil {
		return " (the project has no workflows)"
	}
	var ids []string
	for _, e := range entries {
		if n := e.Name(); filepath.Ext(n) == ".yaml" && !strings.HasPrefix(n, ".") {
			ids = append(ids, strings.TrimSuffix(n, ".yaml"))
		}
	}
	if len(ids) == 0 {
		return " (the project has no workflows)"
	}
	return " (workflows: " + strings.Join(ids, ", ") + ")"
}

// loadWorkflowFile reads, parses and validates one file. It returns the
// workflow only when there is no problem.
func loadWorkflowFile(path, wantID string) (*Workflow, []authored.Problem) {
	filePos := authored.Pos{File: path, Line: 1, Col: 1}
	src, err := readBounded(path)
	if err != nil {
		return nil, []authored.Problem{{Pos: filePos, Field: "file", Message: err.Error()}}
	}
	root, ps := parseYAML(path, src)
	if len(ps) > 0 {
		authored.Problems(ps).Sort()
		return nil, ps
	}
	p := &wfParser{file: path, wantID: wantID}
	if !workflowIDPattern.MatchString(wantID) {
		p.add(filePos, "id", "file name %q is not a workflow id: use 1-64 of a-z, 0-9, _ and - before .yaml", filepath.Base(path))
	}
	w := p.parse(root)
	if len(p.problems) > 0 {
		p.problems.Sort()
		return nil, p.problems
	}
	if err := w.compileSchemas(); err != nil {
		return nil, []authored.Problem{{Pos: filePos, Field: "inputs", Message: "cannot build the input schema: " + err.Error()}}
	}
	return w, nil
}

// readBounded reads a regular file of at most maxWorkflowBytes
// (regularfile: a FIFO in a hostile checkout is refused, never waited on).
func readBounded(path string) ([]byte, error) {
	b, _, err := regularfile.Read(path, maxWorkflowBytes, regularfile.Options{})
	if tl := (*regularfile.TooLargeError)(nil); errors.As(err, &tl) {
		return nil, fmt.Errorf("the file is larger than %d bytes", maxWorkflowBytes)
	}
	return b, err
}
