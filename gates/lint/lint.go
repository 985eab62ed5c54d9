package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/relavium/relavium/engine/sanitize"
)

// Definition kinds.
const (
	KindTool     = "tool"
	KindPrompt   = "prompt"
	KindResource = "resource"
	KindTemplate = "resource_template"
)

const (
	maxDepth = 64   // levels walked in one definition
	maxTexts = 4096 // texts read from one definition
)

// Server is what one server offers, as lint reads it.
type Server struct {
	Name string
	// Source is where the server is declared (a config file relative to the
	// project, and its line), for SARIF locations; "" when unknown.
	Source     string
	SourceLine int
	Defs       []Def
}

// Def is one definition as the server sent it.
type Def struct {
	Kind string
	Name string
	// Skipped is discovery's reason code when it refused the tool.
	Skipped string
	Raw     json.RawMessage
}

// Suppression waives one rule for one tool (prompt, resource) of one
// server, for a reason the person wrote.
type Suppression struct {
	Server, Rule, Tool, Reason string
	// At is where it is declared (file:line:col), for messages.
	At string
}

// Finding is one rule firing on one member of one definition.
type Finding struct {
	Rule     string `json:"rule"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Server   string `json:"server"`
	Kind     string `json:"kind"`
	Item     string `json:"item"`
	Pointer  string `json:"pointer"`
	Message  string `json:"message"`
	// Skipped is set on a tool discovery refused (its reason code).
	Skipped string `json:"skipped,omitempty"`
	// Suppressed is the reason of the suppression that waives it.
	Suppressed string `json:"suppressed,omitempty"`

	source     string
	sourceLine int
}

// Report is the result of a lint run.
type Report struct {
	Findings []Finding `json:"findings"`
	Rules    []Rule    `json:"rules"`
	// Unused are suppressions that waived nothing (a typo, or fixed).
	Unused []Suppression `json:"unused_suppressions,omitempty"`
	// Definitions counts what was read.
	Definitions int `json:"definitions"`
}

type otherTool struct{ server, name string }

type checker struct {
	server     string
	otherTools []otherTool
}

// Run lints servers. Findings are sorted by server, kind, item, pointer,
// rule.
func Run(servers []Server, sups []Suppression) *Report {
	var tools []otherTool
	for _, s := range servers {
		for _, d := range s.Defs {
			if d.Kind == KindTool {
				tools = append(tools, otherTool{server: s.Name, name: d.Name})
			}
		}
	}
	rep := &Report{Findings: []Finding{}, Rules: Rules()}
	used := make([]bool, len(sups))
	for _, s := range servers {
		c := &checker{server: s.Name, otherTools: tools}
		for _, d := range s.Defs {
			rep.Definitions++
			seen := map[string]bool{}
			add := func(rule, ptr, msg string) {
				key := rule + "\x00" + ptr
				if seen[key] {
					return
				}
				seen[key] = true
				r := ruleByID(rule)
				f := Finding{Rule: rule, Name: r.Name, Severity: r.Severity, Server: s.Name, Kind: d.Kind, Item: d.Name,
					Pointer: ptr, Message: msg, Skipped: d.Skipped, source: s.Source, sourceLine: s.SourceLine}
				for i, sp := range sups {
					if sp.Server == s.Name && sp.Rule == rule && sp.Tool == d.Name {
						f.Suppressed, used[i] = sp.Reason, true
					}
				}
				rep.Findings = append(rep.Findings, f)
			}
			c.check(d, add)
		}
	}
	for i, sp := range sups {
		if !used[i] {
			rep.Unused = append(rep.Unused, sp)
		}
	}
	sort.SliceStable(rep.Findings, func(i, j int) bool {
		a, b := rep.Findings[i], rep.Findings[j]
		for _, p := range [][2]string{{a.Server, b.Server}, {a.Kind, b.Kind}, {a.Item, b.Item}, {a.Pointer, b.Pointer}, {a.Rule, b.Rule}} {
			if p[0] != p[1] {
				return p[0] < p[1]
			}
		}
		return false
	})
	return rep
}

// check runs every rule over one definition.
func (c *checker) check(d Def, add func(rule, ptr, msg string)) {
	if d.Kind == KindTool && d.Skipped != "" && len(d.Raw) == 0 {
		// Nothing of it was kept to read: lint says so rather than pass it.
		what := "tool " + excerpt(d.Name)
		if d.Name == "*" {
			what = "the tools after where discovery stopped"
		}
		add(RuleUnread, "", fmt.Sprintf("discovery refused %s (%s) and its definition was not captured (a tools/list page over the 4 MiB the wire recorder keeps, or never fetched): lint could not check it", what, d.Skipped))
	}
	c.checkText(text{ptr: "/name", s: d.Name, name: true}, add)
	dec := json.NewDecoder(bytes.NewReader(d.Raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return // not JSON (a tool refused unread): its name was checked
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	var texts []text
	collectTexts(obj, "", 0, &texts)
	for _, t := range texts {
		c.checkText(t, add)
	}
	if d.Kind == KindTool {
		c.checkTool(d.Name, obj, add)
	}
}

// collectTexts gathers every description and title (the members a model or
// a person reads) at any depth, the top-level description marked.
func collectTexts(v any, ptr string, depth int, out *[]text) {
	if depth > maxDepth || len(*out) >= maxTexts {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			p := ptr + "/" + pointerToken(k)
			if depth > 0 && sanitize.Check(k) != nil {
				*out = append(*out, text{ptr: p, s: k, name: true}) // a property name a person cannot read
			}
			if s, ok := x[k].(string); ok {
				switch k {
				case "description", "title":
					*out = append(*out, text{ptr: p, s: s, top: depth == 0 && k == "description"})
				case "name", "uri", "uriTemplate":
					if depth > 0 {
						*out = append(*out, text{ptr: p, s: s, name: true})
					}
				}
				continue
			}
			collectTexts(x[k], p, depth+1, out)
		}
	case []any:
		for i, e := range x {
			collectTexts(e, fmt.Sprintf("%s/%d", ptr, i), depth+1, out)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// pointerToken escapes one JSON pointer token (RFC 6901).
func pointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// Fails reports whether a finding at or above min is not suppressed.
func (r *Report) Fails(min string) bool {
	for _, f := range r.Findings {
		if f.Suppressed == "" && rank(f.Severity) >= rank(min) && rank(min) > 0 {
			return true
		}
	}
	return false
}

// Count returns how many unsuppressed findings have each severity.
func (r *Report) Count() (errors, warnings, notes, suppressed int) {
	for _, f := range r.Findings {
		switch {
		case f.Suppressed != "":
			suppressed++
		case f.Severity == SeverityError:
			errors++
		case f.Severity == SeverityWarning:
			warnings++
		default:
			notes++
		}
	}
	return
}
