package lock

import (
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host/discovery"
)

// kindLabel says what a change is, for a person.
var kindLabel = map[string]string{
	discovery.ChangeReadOnlyClaimed: "now claims read-only",
	discovery.ChangeAnnotation:      "annotation flipped",
	discovery.ChangeDescription:     "description changed",
	discovery.ChangeTitle:           "title changed",
	discovery.ChangePropertyAdded:   "schema property added",
	discovery.ChangePropertyRemoved: "schema property removed",
	discovery.ChangeTypeChanged:     "schema type changed",
	discovery.ChangeRequired:        "required changed",
	discovery.ChangeSchema:          "schema changed",
	discovery.ChangeOther:           "changed",
}

// Line is one difference as one line: what the human form and the GitHub
// annotations both print. Level is "error" for a difference, "warning"
// for a note; Critical lines (a tool now claiming read-only) come first.
type Line struct {
	Level    string
	Critical bool
	Server   string
	Text     string
	Detail   []string
}

// Lines flattens d: per server, read-only claims first, then removed,
// added and changed definitions, protocol and capabilities; notes last.
func (d *Diff) Lines() []Line {
	var crit, rest []Line
	for _, s := range d.Servers {
		srv := name(s.Server)
		switch s.Change {
		case "added":
			rest = append(rest, Line{Level: "error", Server: srv, Text: "server " + srv + " is not in the lock (added)"})
			continue
		case "removed":
			rest = append(rest, Line{Level: "error", Server: srv, Text: "server " + srv + " is locked but was not offered (removed)"})
			continue
		}
		for _, c := range s.Identity {
			rest = append(rest, Line{Level: "error", Server: srv, Text: fmt.Sprintf("server %s: %s changed: %s → %s", srv, c.Field, name(c.Old), name(c.New))})
		}
		for _, g := range s.groups() {
			if g.d == nil {
				continue
			}
			for _, ic := range g.d.Changed {
				if ic.ReadOnlyClaimed {
					crit = append(crit, Line{Level: "error", Critical: true, Server: srv,
						Text: fmt.Sprintf("server %s: %s %s now claims read-only (readOnlyHint true; it did not before)", srv, g.what, name(ic.Name))})
				}
			}
			for _, n := range g.d.Removed {
				rest = append(rest, Line{Level: "error", Server: srv, Text: fmt.Sprintf("server %s: %s %s removed", srv, g.what, name(n))})
			}
			for _, n := range g.d.Added {
				rest = append(rest, Line{Level: "error", Server: srv, Text: fmt.Sprintf("server %s: %s %s added", srv, g.what, name(n))})
			}
			for _, ic := range g.d.Changed {
				rest = append(rest, Line{Level: "error", Server: srv, Text: fmt.Sprintf("server %s: %s %s changed (%d field(s))", srv, g.what, name(ic.Name), len(ic.Changes)),
					Detail: changeDetail(ic)})
			}
		}
		if s.Protocol != nil {
			rest = append(rest, Line{Level: "error", Server: srv, Text: fmt.Sprintf("server %s: protocol %s → %s", srv, name(s.Protocol.Old), name(s.Protocol.New))})
		}
		if len(s.Capabilities) > 0 {
			rest = append(rest, Line{Level: "error", Server: srv, Text: fmt.Sprintf("server %s: capabilities changed", srv),
				Detail: fieldLines(s.Capabilities)})
		}
	}
	for _, n := range d.Notes {
		rest = append(rest, Line{Level: "warning", Text: sanitize.Line(n)})
	}
	return append(crit, rest...)
}

type group struct {
	what string
	d    *ItemsDiff
}

func (s *ServerDiff) groups() []group {
	return []group{{"tool", s.Tools}, {"skipped tool", s.Skipped}, {"prompt", s.Prompts}, {"resource", s.Resources}, {"resource template", s.Templates}}
}

func changeDetail(ic ItemChange) []string {
	var out []string
	for _, c := range ic.Changes {
		if c.Kind == discovery.ChangeDescription && ic.Description != "" {
			out = append(out, "description: "+ic.Description)
			continue
		}
		out = append(out, fieldLine(c))
	}
	return out
}

func fieldLines(cs []discovery.FieldChange) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, fieldLine(c))
	}
	return out
}

func fieldLine(c discovery.FieldChange) string {
	label := kindLabel[c.Kind]
	if label == "" {
		label = "changed"
	}
	old, nw := c.Old, c.New
	if old == "" {
		old = "(absent)"
	}
	if nw == "" {
		nw = "(absent)"
	}
	return fmt.Sprintf("%s %s: %s → %s", label, c.Pointer, old, nw)
}

// name renders a server-chosen string on one line, sanitized.
func name(s string) string {
	s = sanitize.Line(s)
	if s == "" {
		return `""`
	}
	return s
}

// WriteHuman writes d for a person.
func (d *Diff) WriteHuman(w io.Writer) error {
	var b strings.Builder
	lines := d.Lines()
	errs := 0
	for _, l := range lines {
		mark := "✗"
		switch {
		case l.Critical:
			mark = "!!"
		case l.Level == "warning":
			mark = "note:"
		default:
			errs++
		}
		if l.Critical {
			errs++
		}
		fmt.Fprintf(&b, "%s %s\n", mark, l.Text)
		for _, x := range l.Detail {
			fmt.Fprintf(&b, "    %s\n", x)
		}
	}
	if errs == 0 {
		fmt.Fprintf(&b, "no drift: the servers offer what %s holds\n", d.Against)
	} else {
		fmt.Fprintf(&b, "%d difference(s) from %s\n", errs, d.Against)
	}
	_, err := io.WriteString(sanitize.NewWriter(w), b.String())
	return err
}

// WriteGitHub writes d as GitHub Actions workflow annotations, one per
// difference, located at the lock file.
func (d *Diff) WriteGitHub(w io.Writer) error {
	var b strings.Builder
	for _, l := range d.Lines() {
		msg := l.Text
		if len(l.Detail) > 0 {
			msg += "\n" + strings.Join(l.Detail, "\n")
		}
		fmt.Fprintf(&b, "::%s file=%s,title=%s::%s\n", l.Level, ghProperty(d.Against), ghProperty("relavium mcp check"), ghData(msg))
	}
	_, err := io.WriteString(sanitize.NewWriter(w), b.String())
	return err
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
