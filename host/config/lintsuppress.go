package config

import (
	"fmt"
	"regexp"

	"github.com/relavium/relavium/fault"
)

// CodeLintSuppress is a malformed lint_suppress entry (in issue 18's range:
// the lint gates own E940–E969).
const CodeLintSuppress fault.Code = "E960"

// LintSuppression waives one `relavium mcp lint` rule for one tool (or
// prompt, resource) of the server, for the reason the person wrote.
type LintSuppression struct {
	Rule   string `json:"rule"`
	Tool   string `json:"tool"`
	Reason string `json:"reason"`
	Pos    Pos    `json:"source"`
}

// lintRuleID is the shape of a lint rule id (RL001…).
var lintRuleID = regexp.MustCompile(`^RL[0-9]{3}$`)

var lintSuppressKeys = []string{"rule", "tool", "reason"}

// lintSuppress reads a server's lint_suppress: an array of
// { rule = "RL006", tool = "fetch", reason = "…" } tables, each member
// required (a waiver without a reason is not reviewable), each rule an id
// of the lint rule table's shape, each rule and tool pair once.
func (c *checker) lintSuppress(f *field, path string) []LintSuppression {
	switch f.val.kind {
	case kindNull:
		return nil
	case kindBad:
		return nil
	case kindArray:
	default:
		c.add(CodeLintSuppress, f.at(), path, "must be an array of { rule, tool, reason } tables, got %s", f.val.kind)
		return nil
	}
	out := []LintSuppression{}
	seen := map[string]Pos{}
	for i, it := range f.val.items {
		p := fmt.Sprintf("%s[%d]", path, i)
		at := it.pos
		if at.Line == 0 {
			at = f.at()
		}
		if it.kind != kindTable {
			c.add(CodeLintSuppress, at, p, "must be a { rule, tool, reason } table, got %s", it.kind)
			continue
		}
		c.unknownKeys(it, p, lintSuppressKeys, func(string) string { return "" })
		s := LintSuppression{Pos: at}
		ok := true
		for _, k := range lintSuppressKeys {
			e := it.get(k)
			if e == nil {
				c.add(CodeLintSuppress, at, join(p, k), "missing %s: a suppression names the rule, the tool and why (rule = \"RL006\", tool = \"fetch\", reason = \"fetches urls by design\")", k)
				ok = false
				continue
			}
			v, vok := c.required(e, join(p, k), "a suppression names the rule, the tool and why")
			if !vok {
				ok = false
				continue
			}
			switch k {
			case "rule":
				if !lintRuleID.MatchString(v) {
					c.add(CodeLintSuppress, e.at(), join(p, k), "%q is not a lint rule id (RL001…; `relavium mcp lint --json` lists them)", v)
					ok = false
				}
				s.Rule = v
			case "tool":
				s.Tool = v
			case "reason":
				s.Reason = v
			}
		}
		if !ok {
			continue
		}
		key := s.Rule + "\x00" + s.Tool
		if first, dup := seen[key]; dup {
			c.add(CodeLintSuppress, at, p, "suppresses %s for %q again (first at %d:%d)", s.Rule, s.Tool, first.Line, first.Col).Related = []Pos{first}
			continue
		}
		seen[key] = at
		out = append(out, s)
	}
	return out
}
