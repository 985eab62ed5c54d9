package lint

import (
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/engine/sanitize"
)

// WriteHuman writes one line per finding, then the counts. Server text is
// quoted escaped in messages; names pass the display sanitizer.
func (r *Report) WriteHuman(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Findings {
		where := fmt.Sprintf("%s %s %s %s", sanitize.Line(f.Server), f.Kind, sanitize.Line(f.Item), f.Pointer)
		if f.Skipped != "" {
			where += " (skipped: " + f.Skipped + ")"
		}
		sev := f.Severity
		if f.Suppressed != "" {
			sev = "suppressed"
		}
		fmt.Fprintf(&b, "%-10s %s %-26s %s: %s\n", sev, f.Rule, f.Name, where, f.Message)
		if f.Suppressed != "" {
			fmt.Fprintf(&b, "           reason: %s\n", sanitize.Line(f.Suppressed))
		}
	}
	for _, u := range r.Unused {
		fmt.Fprintf(&b, "note: the suppression of %s for %s on server %s (%s) waived nothing\n", u.Rule, sanitize.Line(u.Tool), sanitize.Line(u.Server), u.At)
	}
	e, wn, n, s := r.Count()
	fmt.Fprintf(&b, "%d error(s), %d warning(s), %d note(s), %d suppressed, in %d definition(s)\n", e, wn, n, s, r.Definitions)
	_, err := io.WriteString(sanitize.NewWriter(w), b.String())
	return err
}
