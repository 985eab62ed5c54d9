package workflow

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/relavium/relavium/authored"
)

var (
	workflowIDPattern = regexp.MustCompile(`^[a-z0-9_-]{1,64}$`)
	stepIDPattern     = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	inputNamePattern  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	outputNamePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
)

// ReservedInputName is the one name an input may not take: the workflow's
// MCP tool (relavium_<id>) carries the confirmation value under it.
const ReservedInputName = "confirm"

// maxStepTimeout bounds timeout_ms (the same ceiling as connect_timeout_ms).
const maxStepTimeout = 600_000

var (
	topKeys     = []string{"id", "description", "trigger", "side_effect", "mcp_servers", "inputs", "steps", "outputs"}
	triggerKeys = []string{"type"}
	serverKeys  = []string{"ref", "tools_allowlist"}
	// inlineKeys are the keys of a server declared in place (config.toml's
	// and agent files' spellings): refused in a workflow, by name.
	inlineKeys = []string{"id", "name", "transport", "command", "args", "env", "cwd", "url", "allow_local_endpoint", "headers",
		"connect_timeout_ms", "call_timeout_ms", "tools_auto_approve", "protocol", "lint_suppress", "oauth", "autostart"}
	inputKeys    = []string{"name", "type", "required", "default", "description", "enum"}
	stepKeys     = []string{"id", "tool", "args", "gate", "continue_on_error", "timeout_ms"}
	mcpCallKeys  = []string{"server", "tool", "arguments"}
	sideEffects  = []string{SideEffectRead, SideEffectWrite, SideEffectRemote, SideEffectDestructive}
	triggerTypes = []string{TriggerManual, TriggerMCPCall}
)

// wfParser turns a positioned YAML tree into a Workflow, collecting every
// problem instead of stopping at the first.
type wfParser struct {
	file     string
	wantID   string
	problems authored.Problems
}

func (p *wfParser) add(pos authored.Pos, field, format string, a ...any) {
	if pos.File == "" {
		pos.File = p.file
	}
	p.problems.Add("", pos, field, format, a...)
}

// fields checks that n is a mapping with only allowed keys and returns its
// entries by name. ok is false when n is not a mapping.
func (p *wfParser) fields(n *ynode, field string, allowed []string, what string) (map[string]ykey, bool) {
	if n.kind != yMap {
		p.add(n.pos, field, "%s must be a mapping, not %s", what, n.describe())
		return nil, false
	}
	out := make(map[string]ykey, len(n.keys))
	for _, k := range n.keys {
		if !slices.Contains(allowed, k.name) {
			p.add(k.pos, join(field, k.name), "unknown key %q in %s (allowed: %s)", k.name, what, strings.Join(allowed, ", "))
			continue
		}
		out[k.name] = k
	}
	return out, true
}

func join(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func index(parent string, i int) string { return fmt.Sprintf("%s[%d]", parent, i) }

func (p *wfParser) str(k ykey, field string) (string, bool) {
	s, ok := k.val.str()
	if !ok {
		p.add(k.val.posOr(k.pos), field, "must be a string, not %s", k.val.describe())
	}
	return s, ok
}

func (p *wfParser) boolean(k ykey, field string) (bool, bool) {
	if k.val.kind == yScalar {
		if b, ok := k.val.scalar.(bool); ok {
			return b, true
		}
	}
	p.add(k.val.posOr(k.pos), field, "must be true or false, not %s", k.val.describe())
	return false, false
}

// posOr is the node's position, or the key's when the node has none (null).
func (n *ynode) posOr(p authored.Pos) authored.Pos {
	if n.pos.Line == 0 {
		return p
	}
	return n.pos
}

func (p *wfParser) parse(root *ynode) *Workflow {
	w := &Workflow{File: p.file, Trigger: TriggerManual}
	top, ok := p.fields(root, "", topKeys, "a workflow")
	if !ok {
		return w
	}
	filePos := authored.Pos{File: p.file, Line: 1, Col: 1}
	if k, ok := top["id"]; ok {
		if s, ok := p.str(k, "id"); ok {
			w.ID = s
			switch {
			case !workflowIDPattern.MatchString(s):
				p.add(k.val.pos, "id", "%q is not a workflow id: use 1-64 of a-z, 0-9, _ and -", s)
			case s != p.wantID:
				p.add(k.val.pos, "id", "id %q must equal the file name %q (rename the file or the id)", s, p.wantID+".yaml")
			}
		}
	} else {
		p.add(filePos, "id", "id is required and must equal the file name (%q)", p.wantID)
	}
	if k, ok := top["description"]; ok {
		w.Description, _ = p.str(k, "description")
	}
	if k, ok := top["trigger"]; ok {
		p.trigger(w, k)
	}
	if k, ok := top["side_effect"]; ok {
		if s, ok := p.str(k, "side_effect"); ok {
			if !slices.Contains(sideEffects, s) {
				p.add(k.val.pos, "side_effect", "%q is not a side effect: use read, write, remote or destructive", s)
			}
			w.SideEffect = s
		}
	} else {
		p.add(filePos, "side_effect", "side_effect is required: read, write, remote or destructive (what the machine gate sees)")
	}
	if k, ok := top["mcp_servers"]; ok {
		p.servers(w, k)
	}
	if k, ok := top["inputs"]; ok {
		p.inputs(w, k)
	}
	if k, ok := top["steps"]; ok {
		p.steps(w, k)
	} else {
		p.add(filePos, "steps", "steps is required: a list of tool and gate steps")
	}
	if k, ok := top["outputs"]; ok {
		p.outputs(w, k)
	}
	return w
}

func (p *wfParser) trigger(w *Workflow, k ykey) {
	m, ok := p.fields(k.val, "trigger", triggerKeys, "trigger")
	if !ok {
		return
	}
	t, ok := m["type"]
	if !ok {
		p.add(k.val.pos, "trigger.type", "trigger needs a type: manual or mcp_call")
		return
	}
	if s, ok := p.str(t, "trigger.type"); ok {
		if !slices.Contains(triggerTypes, s) {
			p.add(t.val.pos, "trigger.type", "%q is not a trigger: use manual or mcp_call", s)
			return
		}
		w.Trigger = s
	}
}

func (p *wfParser) servers(w *Workflow, k ykey) {
	if k.val.kind == yNull {
		return
	}
	if k.val.kind != ySeq {
		p.add(k.val.pos, "mcp_servers", "must be a list of {ref: NAME}, not %s", k.val.describe())
		return
	}
	seen := map[string]authored.Pos{}
	for i, item := range k.val.items {
		field := index("mcp_servers", i)
		if item.kind == yMap && p.inlineServer(item, field) {
			continue
		}
		m, ok := p.fields(item, field, serverKeys, "a server reference")
		if !ok {
			continue
		}
		ref := ServerRef{Pos: item.pos}
		rk, ok := m["ref"]
		if !ok {
			p.add(item.pos, join(field, "ref"), "a server reference needs ref: the name of a [[mcp_servers]] registration")
			continue
		}
		if s, ok := p.str(rk, join(field, "ref")); ok {
			if s == "" {
				p.add(rk.val.posOr(rk.pos), join(field, "ref"), "ref must name a registration")
				continue
			}
			if first, dup := seen[s]; dup {
				p.add(rk.val.pos, join(field, "ref"), "server %q is already referenced at %d:%d", s, first.Line, first.Col)
				continue
			}
			seen[s] = rk.val.pos
			ref.Ref = s
		}
		if ak, ok := m["tools_allowlist"]; ok {
			ref.ToolsAllowlist = p.stringList(ak, join(field, "tools_allowlist"))
		}
		if ref.Ref != "" {
			w.Servers = append(w.Servers, ref)
		}
	}
}

// inlineServer refuses an entry that declares a connection in place,
// naming its first such key: beside a ref, that key belongs on the
// registration the ref names (a ref takes its whole connection from it, as
// in an agent file); without one, the entry is an inline server, which a
// workflow does not take. protocol, for one, is set on the registration
// (protocol = "2025-11-25" | "2026-07-28" | "auto"), and a workflow's run
// connects in that era.
func (p *wfParser) inlineServer(item *ynode, field string) bool {
	hasRef := slices.ContainsFunc(item.keys, func(e ykey) bool { return e.name == "ref" })
	for _, e := range item.keys {
		switch {
		case !slices.Contains(inlineKeys, e.name):
		case hasRef && e.name != "id" && e.name != "name":
			p.add(e.pos, join(field, e.name), "%q cannot sit beside ref: a ref takes its whole connection from the [[mcp_servers]] registration it names (set %s there); only tools_allowlist may narrow it", e.name, e.name)
			return true
		default:
			p.add(e.pos, join(field, e.name), "inline server entries are not supported in workflows: register the server in config.toml ([[mcp_servers]]) and write {ref: NAME} here")
			return true
		}
	}
	return false
}

func (p *wfParser) stringList(k ykey, field string) []string {
	if k.val.kind != ySeq {
		p.add(k.val.posOr(k.pos), field, "must be a list of tool names, not %s", k.val.describe())
		return nil
	}
	out := []string{}
	for i, it := range k.val.items {
		s, ok := it.str()
		switch {
		case !ok:
			p.add(it.posOr(k.pos), index(field, i), "must be a string, not %s", it.describe())
		case s == "":
			p.add(it.posOr(k.pos), index(field, i), "must not be empty")
		case slices.Contains(out, s):
			p.add(it.pos, index(field, i), "%q is listed twice", s)
		default:
			out = append(out, s)
		}
	}
	return out
}

func (p *wfParser) outputs(w *Workflow, k ykey) {
	if k.val.kind == yNull {
		return
	}
	if k.val.kind != yMap {
		p.add(k.val.pos, "outputs", "outputs must be a mapping of names to values, not %s", k.val.describe())
		return
	}
	env := &refEnv{w: w, cur: len(w.Steps), stepIndex: map[string]int{}}
	for i, s := range w.Steps {
		if s.ID != "" {
			env.stepIndex[s.ID] = i
		}
	}
	for _, e := range k.val.keys {
		field := join("outputs", e.name)
		if !outputNamePattern.MatchString(e.name) {
			p.add(e.pos, field, "%q is not an output name: use 1-64 of letters, digits, _ and -", e.name)
			continue
		}
		w.Outputs = append(w.Outputs, Output{Name: e.name, Value: p.templateTree(e.val, field, env), Pos: e.pos})
	}
}
