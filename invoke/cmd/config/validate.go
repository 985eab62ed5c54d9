package config

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/relavium/relavium/authored"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/workflow"
)

// ConfigReport is the data of `relavium config validate`: what was checked
// in a configuration with no problem.
type ConfigReport struct {
	Files     []string               `json:"files"`
	Servers   []config.ServerSummary `json:"servers"`
	Agents    []config.AgentSummary  `json:"agents"`
	Workflows []string               `json:"workflows"`
	Warnings  []config.Problem       `json:"warnings"`
	project   string
}

// WriteHuman prints a one-line verdict and what was checked.
func (r ConfigReport) WriteHuman(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "configuration ok: %s checked, %s, %s, %s\n",
		cfgPlural(len(r.Files)+len(r.Workflows), "file"), cfgPlural(len(r.Servers), "server"),
		cfgPlural(len(r.Agents), "agent"), cfgPlural(len(r.Workflows), "workflow"))
	for _, f := range append(append([]string{}, r.Files...), r.Workflows...) {
		fmt.Fprintf(&b, "  %s\n", cli.RelPath(r.project, f))
	}
	for _, s := range r.Servers {
		fmt.Fprintf(&b, "server %s (%s) at %s:%d\n", s.Name, s.Transport, cli.RelPath(r.project, s.Source.File), s.Source.Line)
	}
	for _, a := range r.Agents {
		servers := strings.Join(a.Servers, ", ")
		if servers == "" {
			servers = "(no servers)"
		}
		fmt.Fprintf(&b, "agent %s: %s\n", a.Name, servers)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func cfgPlural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// RunConfigValidate checks both config files, every agent file and (through
// validateWorkflows) every workflow file, reporting ALL problems at once:
// exit 2 on any, 0 with a summary otherwise. Warnings go to stderr like a
// compiler's; under --json they are also in the envelope.
func RunConfigValidate(_ context.Context, inv *cli.Invocation) (any, error) {
	project := inv.Global.Project
	rep, err := config.ValidateFrom(inv.Env.Home, project, inv.Global.Agent, inv.Sources())
	wfFiles, wfProblems := validateWorkflows(inv)
	var cerr *config.Error
	switch {
	case err != nil && !errors.As(err, &cerr):
		return nil, err
	case err == nil && len(wfProblems) > 0:
		cerr = config.Invalid(rep.Files, rep.Warnings, project)
	}
	if cerr != nil {
		cerr.Problems = append(cerr.Problems, wfProblems...)
		cerr.Files = append(cerr.Files, wfFiles...)
		return nil, cerr
	}
	for _, w := range rep.Warnings {
		fmt.Fprintln(inv.Env.Stderr, cli.ProblemLine(project, w))
	}
	return ConfigReport{
		Files: rep.Files, Servers: rep.Servers, Agents: rep.Agents,
		Workflows: cfgNonNil(wfFiles), Warnings: rep.Warnings, project: project,
	}, nil
}

func cfgNonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// validateWorkflows is the seam for workflow files
// (<project>/.relavium/workflows/*.yaml), owned by package workflow: it
// returns every workflow file checked and each of their problems adopted as
// a config.Problem (both are the authored layer's problems), so `config
// validate` reports them with the config and agent problems in one pass.
// Each problem keeps the workflow's code (E600)
// with rule "workflow"; a workflow's `ref:` naming no registration is
// config's E220 (resolved through (*config.Config).ResolveRefs when the
// config files themselves are valid).
func validateWorkflows(inv *cli.Invocation) (files []string, problems []config.Problem) {
	project := inv.Global.Project
	files, _ = filepath.Glob(filepath.Join(workflow.WorkflowDir(project), "*.yaml"))
	wfs, err := workflow.LoadWorkflows(project)
	var pe *workflow.ProblemsError
	switch {
	case errors.As(err, &pe):
		problems = config.Adopt(pe.Code(), "workflow", pe.Problems)
	case err != nil:
		problems = config.Adopt(cli.CodeOf(err), "workflow", []authored.Problem{{Pos: authored.Pos{File: workflow.WorkflowDir(project)}, Message: err.Error()}})
	}
	cfg, cerr := config.LoadFrom(inv.Env.Home, project, inv.Sources())
	if cerr != nil {
		return files, problems // the config problems are reported by config.Validate
	}
	for _, wf := range wfs {
		refs := make([]config.Ref, 0, len(wf.Servers))
		for _, r := range wf.Servers {
			refs = append(refs, config.Ref{Name: r.Ref, ToolsAllowlist: r.ToolsAllowlist, Pos: r.Pos})
		}
		var ce *config.Error
		if _, err := cfg.ResolveRefs(refs); errors.As(err, &ce) {
			problems = append(problems, ce.Problems...)
		}
	}
	return files, problems
}
