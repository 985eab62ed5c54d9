package workflow

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/fault"

	"github.com/relavium/relavium/engine"
)

// PlanServer is one server a workflow run would connect, as the plan shows
// it: a stdio server with its v1 consent digest, a network one with its url.
type PlanServer struct {
	Name           string   `json:"name"`
	Transport      string   `json:"transport"`
	CommandLine    string   `json:"command_line,omitempty"`
	Digest         string   `json:"digest,omitempty"`
	URL            string   `json:"url,omitempty"`
	ToolsAllowlist []string `json:"tools_allowlist,omitempty"`
}

// PlanStep is one step as planned: authored arguments (templates as
// written), nothing evaluated.
type PlanStep struct {
	ID              string         `json:"id"`
	Kind            string         `json:"kind"`
	Tool            string         `json:"tool,omitempty"`
	Args            map[string]any `json:"args,omitempty"`
	Gate            string         `json:"gate,omitempty"`
	ContinueOnError bool           `json:"continue_on_error,omitempty"`
	TimeoutMS       int64          `json:"timeout_ms,omitempty"`
}

// WorkflowPlan is the plan form of a run (docs/machine-invoker.md "Gate"):
// what would run, on which servers with which digests, and whether a
// machine client must confirm. PlanID is the SHA-256 hex of the canonical
// JSON of every other field, so any change to the workflow's steps, outputs
// or side effect, to the inputs, or to a server's command, digest, url or
// allowlist gives another id.
type WorkflowPlan struct {
	Workflow             string         `json:"workflow"`
	SideEffect           string         `json:"side_effect"`
	Inputs               map[string]any `json:"inputs"`
	Steps                []PlanStep     `json:"steps"`
	Outputs              map[string]any `json:"outputs,omitempty"`
	Servers              []PlanServer   `json:"servers"`
	Digests              []string       `json:"digests"`
	RequiresConfirmation bool           `json:"requires_confirmation"`
	// MissingInputs are required inputs `run --plan` was not given. A plan
	// with any has no plan_id: it cannot be run as it stands.
	MissingInputs []string `json:"missing_inputs,omitempty"`
	PlanID        string   `json:"plan_id,omitempty"`
}

// PlanMissing is Plan for a plan that lacks the required inputs named in
// missing: shown, marked, and given no plan_id.
func PlanMissing(w *Workflow, inputs map[string]any, missing []string, servers []PlanServer) (*WorkflowPlan, error) {
	p, err := Plan(w, inputs, servers)
	if err != nil || len(missing) == 0 {
		return p, err
	}
	p.MissingInputs, p.PlanID = slices.Sorted(slices.Values(missing)), ""
	return p, nil
}

// Plan builds the plan of running w with inputs (already resolved: see
// ResolveInputs) on servers, and stamps its plan_id.
func Plan(w *Workflow, inputs map[string]any, servers []PlanServer) (*WorkflowPlan, error) {
	p := &WorkflowPlan{
		Workflow:             w.ID,
		SideEffect:           w.SideEffect,
		Inputs:               inputs,
		Servers:              append([]PlanServer{}, servers...),
		Digests:              []string{},
		RequiresConfirmation: w.RequiresConfirmation(),
	}
	if p.Inputs == nil {
		p.Inputs = map[string]any{}
	}
	for _, s := range w.Steps {
		ps := PlanStep{ID: s.ID, Kind: s.Kind(), Tool: s.Tool, Gate: s.Gate, ContinueOnError: s.ContinueOnError, TimeoutMS: s.Timeout.Milliseconds()}
		if s.Kind() == StepTool {
			ps.Args = s.Args
		}
		p.Steps = append(p.Steps, ps)
	}
	if len(w.Outputs) > 0 {
		p.Outputs = map[string]any{}
		for _, o := range w.Outputs {
			p.Outputs[o.Name] = o.Value
		}
	}
	sort.Slice(p.Servers, func(i, j int) bool { return p.Servers[i].Name < p.Servers[j].Name })
	for _, s := range p.Servers {
		if s.Digest != "" && !slices.Contains(p.Digests, s.Digest) {
			p.Digests = append(p.Digests, s.Digest)
		}
	}
	sort.Strings(p.Digests)
	b, err := canonicalPlan(p)
	if err != nil {
		return nil, &engine.Error{Base: fault.Base{ErrCode: engine.CodeRunOptions, Msg: "cannot encode the plan", Cause: err}}
	}
	sum := sha256.Sum256(b)
	p.PlanID = hex.EncodeToString(sum[:])
	return p, nil
}

// canonicalPlan is the canonical JSON (package canonjson) of p as
// encoding/json writes it, so struct tags and omitempty apply. Numbers pass
// through as json.Number literals; an integer no float64 holds exactly is
// refused rather than rounded into another plan's id.
func canonicalPlan(p *WorkflowPlan) ([]byte, error) { return canonicalValue(p) }

// canonicalValue is canonicalPlan for any value (a plan, one input).
func canonicalValue(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	return canonjson.Marshal(tree)
}

// Check refuses with E450 (exit 2) when id is not this plan's id: something
// moved since the plan was shown.
func (p *WorkflowPlan) Check(id string) error {
	if strings.EqualFold(id, p.PlanID) {
		return nil
	}
	return &engine.Error{Base: fault.Base{ErrCode: CodePlanChanged, Exit: fault.ExitUsage, Msg: fmt.Sprintf("the plan of workflow %s moved: --plan-id %s no longer matches (now %s); run with --plan to review the new plan",
		p.Workflow, short(id), short(p.PlanID))}, Extra: map[string]any{"plan_id": p.PlanID, "expected_plan_id": id, "plan": p}}
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12] + "…"
	}
	return id
}

// WriteHuman prints the plan for a person.
func (p *WorkflowPlan) WriteHuman(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "plan for workflow %s (side effect: %s)\n", p.Workflow, p.SideEffect)
	if len(p.Inputs) > 0 {
		b.WriteString("inputs:\n")
		names := make([]string, 0, len(p.Inputs))
		for k := range p.Inputs {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			fmt.Fprintf(&b, "  %s = %s\n", k, compact(p.Inputs[k]))
		}
	}
	b.WriteString("servers:\n")
	if len(p.Servers) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, s := range p.Servers {
		target := s.CommandLine
		if target == "" {
			target = s.URL
		}
		fmt.Fprintf(&b, "  %-12s %-9s %s\n", s.Name, s.Transport, target)
		if s.Digest != "" {
			fmt.Fprintf(&b, "  %-12s digest    %s\n", "", s.Digest)
		}
	}
	b.WriteString("steps:\n")
	for i, s := range p.Steps {
		if s.Kind == StepGate {
			fmt.Fprintf(&b, "  %d. %-12s gate  %s\n", i+1, s.ID, s.Gate)
			continue
		}
		fmt.Fprintf(&b, "  %d. %-12s tool  %s %s\n", i+1, s.ID, s.Tool, compact(s.Args))
	}
	if p.RequiresConfirmation {
		b.WriteString("requires confirmation: yes\n")
	} else {
		b.WriteString("requires confirmation: no\n")
	}
	for _, name := range p.MissingInputs {
		fmt.Fprintf(&b, "missing input: %s (required; pass --input %s=…)\n", name, name)
	}
	if len(p.MissingInputs) > 0 {
		b.WriteString("plan_id: none (the plan is incomplete until every required input is given)\n")
	} else {
		fmt.Fprintf(&b, "plan_id: %s\n", p.PlanID)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
