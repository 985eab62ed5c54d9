package consent

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/relavium/relavium/sandbox"
)

// ChangeOp is what happened to one field since the earlier grant.
type ChangeOp string

// Change operations.
const (
	Added   ChangeOp = "added"
	Removed ChangeOp = "removed"
	Changed ChangeOp = "changed"
)

// Change is one field-level difference. Field is "command", "args[i]",
// "env NAME", "cwd", or "env" for a change only the digest can see (a literal
// value or a secret name: values are never stored). Old and New are the
// displayed values (an env entry shows its kind, never its value).
type Change struct {
	Field string   `json:"field"`
	Op    ChangeOp `json:"op"`
	Old   string   `json:"old,omitempty"`
	New   string   `json:"new,omitempty"`
}

// Diff compares a server needing consent with the earlier grant of the same server (Grants.Closest).
// Previous is nil when nothing comparable was ever granted.
type Diff struct {
	Previous *Grant   `json:"previous,omitempty"`
	Changes  []Change `json:"changes"`
}

// DiffAgainst computes the field-level diff of r against prev (nil: first
// approval).
func DiffAgainst(r *Resolved, prev *Grant) Diff {
	d := Diff{Previous: prev, Changes: []Change{}}
	if prev == nil {
		return d
	}
	if !metaEqual(prev.Command, r.Command, maxMetaPath) {
		d.Changes = append(d.Changes, Change{Field: "command", Op: Changed, Old: prev.Command, New: r.Command})
	}
	n := max(len(prev.Args), len(r.Args))
	for i := 0; i < n; i++ {
		field := "args[" + strconv.Itoa(i) + "]"
		switch {
		case i >= len(prev.Args):
			if i >= maxMetaArgs && len(prev.Args) == maxMetaArgs {
				continue // the earlier grant kept only the first maxMetaArgs
			}
			d.Changes = append(d.Changes, Change{Field: field, Op: Added, New: r.Args[i]})
		case i >= len(r.Args):
			d.Changes = append(d.Changes, Change{Field: field, Op: Removed, Old: prev.Args[i]})
		case !metaEqual(prev.Args[i], r.Args[i], maxMetaArg):
			d.Changes = append(d.Changes, Change{Field: field, Op: Changed, Old: prev.Args[i], New: r.Args[i]})
		}
	}
	d.Changes = append(d.Changes, envChanges(r, prev)...)
	if !metaEqual(prev.Cwd, r.Cwd, maxMetaPath) {
		d.Changes = append(d.Changes, Change{Field: "cwd", Op: Changed, Old: prev.Cwd, New: r.Cwd})
	}
	d.Changes = append(d.Changes, sandboxChanges(r, prev)...)
	if len(d.Changes) == 0 {
		// Same command, args, env names (and kinds, when known) and cwd,
		// yet another digest: a literal value or a secret name changed.
		d.Changes = append(d.Changes, Change{Field: "env", Op: Changed,
			Old: "an earlier value", New: "a different literal value or secret name (values are never stored; only the digest shows it)"})
	}
	return d
}

// sandboxChanges are what r's sandbox policy allows that the grant's did
// not (sandbox.Diff), each a "sandbox" change; a grant without a policy
// against a policy now is one change naming the policy as new.
func sandboxChanges(r *Resolved, prev *Grant) []Change {
	if r.Sandbox == nil {
		return nil
	}
	granted, ok := sandbox.ParseWords(prev.Sandbox)
	if !ok {
		return []Change{{Field: "sandbox", Op: Added, New: r.Sandbox.Mode() + " (the earlier grant recorded no sandbox policy)"}}
	}
	var out []Change
	for _, line := range sandbox.Diff(granted, *r.Sandbox) {
		text := strings.TrimSpace(line[1:])
		if strings.HasPrefix(line, "-") {
			out = append(out, Change{Field: "sandbox", Op: Removed, Old: text})
			continue
		}
		out = append(out, Change{Field: "sandbox", Op: Added, New: text})
	}
	return out
}

func envChanges(r *Resolved, prev *Grant) []Change {
	var out []Change
	before := make(map[string]bool, len(prev.EnvNames))
	for _, n := range prev.EnvNames {
		before[n] = true
	}
	now := make(map[string]EnvKind, len(r.Env))
	for _, e := range r.Env {
		now[e.Name] = e.Kind
		name := bound(e.Name, maxMetaEnvName)
		switch {
		case !before[name]:
			if len(prev.EnvNames) == maxMetaEnvNames {
				continue // the earlier grant kept only the first maxMetaEnvNames
			}
			out = append(out, Change{Field: "env " + e.Name, Op: Added, New: string(e.Kind)})
		default:
			if old, known := prev.KindOf(name); known && old != e.Kind {
				out = append(out, Change{Field: "env " + e.Name, Op: Changed, Old: string(old), New: string(e.Kind)})
			}
		}
	}
	for _, n := range prev.EnvNames {
		if _, still := now[n]; still {
			continue
		}
		if strings.HasSuffix(n, truncMark) && envPrefixPresent(r, n) {
			continue
		}
		old, _ := prev.KindOf(n)
		out = append(out, Change{Field: "env " + n, Op: Removed, Old: string(old)})
	}
	return out
}

func envPrefixPresent(r *Resolved, stored string) bool {
	for _, e := range r.Env {
		if bound(e.Name, maxMetaEnvName) == stored {
			return true
		}
	}
	return false
}

// Lines renders the diff as text lines, the form both the TUI and the
// headless output show: "- " for what the earlier grant had, "+ " for what
// is declared now (a change is both), "~ " for a change only the digest sees.
// Every value is quoted for a terminal.
func (d Diff) Lines() []string {
	if d.Previous == nil {
		return []string{"no earlier grant of this server: first approval"}
	}
	var out []string
	for _, c := range d.Changes {
		if c.Field == "env" {
			out = append(out, "~ env: "+c.New)
			continue
		}
		field := displayField(c.Field)
		switch c.Op {
		case Added:
			out = append(out, "+ "+field+" "+displayValue(c.Field, c.New))
		case Removed:
			out = append(out, "- "+field+" "+displayValue(c.Field, c.Old))
		case Changed:
			out = append(out, "- "+field+" "+displayValue(c.Field, c.Old), "+ "+field+" "+displayValue(c.Field, c.New))
		}
	}
	return out
}

// Header is the line that introduces the diff.
func (d Diff) Header() string {
	if d.Previous == nil {
		return "changes: none to compare (first approval)"
	}
	return fmt.Sprintf("changes since the grant of %s (%s):", d.Previous.GrantedAt.UTC().Format(timeLayout), d.Previous.Digest)
}

// WriteText writes the header and the lines, each prefixed with indent.
func (d Diff) WriteText(w io.Writer, indent string) error {
	if _, err := fmt.Fprintf(w, "%s%s\n", indent, d.Header()); err != nil {
		return err
	}
	if d.Previous == nil {
		return nil
	}
	for _, l := range d.Lines() {
		if _, err := fmt.Fprintf(w, "%s  %s\n", indent, l); err != nil {
			return err
		}
	}
	return nil
}

func displayField(field string) string {
	if name, ok := strings.CutPrefix(field, "env "); ok {
		return "env " + quoteArg(name)
	}
	return field
}

func displayValue(field, v string) string {
	if strings.HasPrefix(field, "env ") {
		switch EnvKind(v) {
		case "":
			return "(kind unknown)"
		case KindLiteral, KindSecretRef, KindEnvRef:
			return "(" + v + ")"
		}
		return "(" + quoteArg(v) + ")" // a kind read from the store is text from a file
	}
	return quoteArg(v)
}
