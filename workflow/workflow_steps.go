package workflow

import (
	"fmt"
	"strings"
	"time"

	"github.com/relavium/relavium/engine"

	"github.com/relavium/relavium/authored"
)

func (p *wfParser) steps(w *Workflow, k ykey) {
	if k.val.kind != ySeq || len(k.val.items) == 0 {
		p.add(k.val.posOr(k.pos), "steps", "steps must be a non-empty list of tool and gate steps")
		return
	}
	all := map[string]int{}
	for i, item := range k.val.items {
		if item.kind != yMap {
			continue
		}
		for _, e := range item.keys {
			if e.name == "id" {
				if s, ok := e.val.str(); ok {
					if _, dup := all[s]; !dup {
						all[s] = i
					}
				}
			}
		}
	}
	env := &refEnv{w: w, stepIndex: all}
	seen := map[string]authored.Pos{}
	for i, item := range k.val.items {
		field := index("steps", i)
		env.cur = i
		m, ok := p.fields(item, field, stepKeys, "a step")
		if !ok {
			w.Steps = append(w.Steps, Step{Pos: item.pos}) // keep indices aligned
			continue
		}
		st := Step{Pos: item.pos}
		if ik, ok := m["id"]; !ok {
			p.add(item.pos, join(field, "id"), "a step needs an id")
		} else if s, ok := p.str(ik, join(field, "id")); ok {
			first, dup := seen[s]
			switch {
			case !stepIDPattern.MatchString(s):
				p.add(ik.val.pos, join(field, "id"), "%q is not a step id: use 1-64 of letters, digits, _ and -", s)
			case dup:
				p.add(ik.val.pos, join(field, "id"), "step id %q is already used at %d:%d", s, first.Line, first.Col)
			default:
				seen[s] = ik.val.pos
				st.ID = s
			}
		}
		tk, hasTool := m["tool"]
		gk, hasGate := m["gate"]
		switch {
		case hasTool && hasGate:
			p.add(gk.pos, join(field, "gate"), "a step is a tool call or a gate, not both")
		case !hasTool && !hasGate:
			p.add(item.pos, field, "a step needs tool: (a tool call) or gate: (a question for the person)")
		case hasTool:
			p.toolStep(&st, m, tk, field, env)
		default:
			p.gateStep(&st, m, gk, field, env)
		}
		w.Steps = append(w.Steps, st)
	}
}

func (p *wfParser) toolStep(st *Step, m map[string]ykey, tk ykey, field string, env *refEnv) {
	if s, ok := p.str(tk, join(field, "tool")); ok {
		switch {
		case s == "":
			p.add(tk.val.posOr(tk.pos), join(field, "tool"), "tool must name a tool (mcp_<server>_<tool> or mcp_call)")
		case hasTemplate(s):
			p.add(tk.val.pos, join(field, "tool"), "tool must be a literal name; templates are not allowed here")
		case strings.ContainsAny(s, " \t\r\n"):
			p.add(tk.val.pos, join(field, "tool"), "%q is not a tool name", s)
		default:
			st.Tool = s
		}
	}
	st.Args = map[string]any{}
	if ak, ok := m["args"]; ok && ak.val.kind != yNull {
		if ak.val.kind != yMap {
			p.add(ak.val.pos, join(field, "args"), "args must be a mapping of argument names to values, not %s", ak.val.describe())
		} else if v, ok := p.templateTree(ak.val, join(field, "args"), env).(map[string]any); ok {
			st.Args = v
		}
		if st.Tool == engine.BuiltinMCPCall {
			p.mcpCallArgs(ak, join(field, "args"))
		}
	} else if st.Tool == engine.BuiltinMCPCall {
		p.add(tk.pos, join(field, "args"), "mcp_call needs args: {server: NAME, tool: TOOL, arguments: {…}}")
	}
	if ck, ok := m["continue_on_error"]; ok {
		st.ContinueOnError, _ = p.boolean(ck, join(field, "continue_on_error"))
	}
	if tk, ok := m["timeout_ms"]; ok {
		n, good := tk.val.integer()
		if !good || n <= 0 || n > maxStepTimeout {
			p.add(tk.val.posOr(tk.pos), join(field, "timeout_ms"), "timeout_ms must be a whole number of milliseconds from 1 to %d", maxStepTimeout)
		} else {
			st.Timeout = time.Duration(n) * time.Millisecond
		}
	}
}

func (p *wfParser) mcpCallArgs(ak ykey, field string) {
	m, ok := p.fields(ak.val, field, mcpCallKeys, "mcp_call args")
	if !ok {
		return
	}
	for _, name := range []string{"server", "tool"} {
		k, ok := m[name]
		if !ok {
			p.add(ak.val.pos, join(field, name), "mcp_call needs %s", name)
			continue
		}
		if s, ok := p.str(k, join(field, name)); ok && s == "" {
			p.add(k.val.posOr(k.pos), join(field, name), "must not be empty")
		}
	}
	if k, ok := m["arguments"]; ok && k.val.kind != yMap && k.val.kind != yNull {
		if s, isStr := k.val.str(); !isStr || !hasTemplate(s) {
			p.add(k.val.pos, join(field, "arguments"), "arguments must be a mapping, not %s", k.val.describe())
		}
	}
}

func (p *wfParser) gateStep(st *Step, m map[string]ykey, gk ykey, field string, env *refEnv) {
	for _, name := range []string{"args", "continue_on_error", "timeout_ms"} {
		if k, ok := m[name]; ok {
			p.add(k.pos, join(field, name), "%s belongs to tool steps, not gates", name)
		}
	}
	s, ok := p.str(gk, join(field, "gate"))
	if !ok {
		return
	}
	if strings.TrimSpace(s) == "" {
		p.add(gk.val.posOr(gk.pos), join(field, "gate"), "gate needs a question for the person")
		return
	}
	st.Gate = s
	t, err := parseTemplate(s)
	if err != nil {
		p.add(gk.val.pos, join(field, "gate"), "%v", err)
		return
	}
	p.checkRefs(t, gk.val.pos, join(field, "gate"), env)
	st.gate = t
}

// templateTree converts a node to a JSON-ready tree whose templated strings
// are parsed *Template values, checking every lookup.
func (p *wfParser) templateTree(n *ynode, field string, env *refEnv) any {
	switch n.kind {
	case yMap:
		out := make(map[string]any, len(n.keys))
		for _, k := range n.keys {
			if hasTemplate(k.name) {
				p.add(k.pos, join(field, k.name), "templates are not allowed in keys")
				continue
			}
			out[k.name] = p.templateTree(k.val, join(field, k.name), env)
		}
		return out
	case ySeq:
		out := make([]any, len(n.items))
		for i, it := range n.items {
			out[i] = p.templateTree(it, index(field, i), env)
		}
		return out
	case yScalar:
		s, ok := n.scalar.(string)
		if !ok || !hasTemplate(s) {
			return n.scalar
		}
		t, err := parseTemplate(s)
		if err != nil {
			p.add(n.pos, field, "%v", err)
			return s
		}
		p.checkRefs(t, n.pos, field, env)
		return t
	}
	return nil
}

// refEnv is what a lookup at one place may see.
type refEnv struct {
	w         *Workflow
	cur       int            // index of the current step (len(steps) for outputs)
	stepIndex map[string]int // every step id → its index
}

func (p *wfParser) checkRefs(t *Template, pos authored.Pos, field string, env *refEnv) {
	for _, r := range t.Refs() {
		if msg := env.check(r); msg != "" {
			p.add(pos, field, "{{%s}}: %s", r.Source, msg)
		}
	}
}

func (env *refEnv) check(r Ref) string {
	switch r.Root {
	case "inputs":
		in := env.w.Input(r.Name)
		if in == nil {
			return fmt.Sprintf("no input %q is declared%s", r.Name, declared(env.w))
		}
		if len(r.Path) > 0 && in.Type != "object" && in.Type != "array" {
			return fmt.Sprintf("input %s is a %s; only object and array inputs take a path", r.Name, in.Type)
		}
	case "steps":
		i, ok := env.stepIndex[r.Name]
		switch {
		case !ok:
			return fmt.Sprintf("no step %q in this workflow", r.Name)
		case i == env.cur:
			return fmt.Sprintf("a step cannot read its own result (steps.%s)", r.Name)
		case i > env.cur:
			return fmt.Sprintf("step %s runs later; a lookup may only read earlier steps", r.Name)
		}
		if i < len(env.w.Steps) && env.w.Steps[i].Kind() == StepGate && env.w.Steps[i].ID == r.Name {
			return fmt.Sprintf("step %s is a gate; a gate has no result to read", r.Name)
		}
	}
	return ""
}

func declared(w *Workflow) string {
	if len(w.Inputs) == 0 {
		return " (the workflow declares no inputs)"
	}
	names := make([]string, len(w.Inputs))
	for i, in := range w.Inputs {
		names[i] = in.Name
	}
	return " (declared: " + strings.Join(names, ", ") + ")"
}
