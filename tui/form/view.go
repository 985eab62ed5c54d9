package form

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/tui/render"
)

// How a form is drawn: each field's label, value and problem, wrapped to
// the pane's width.

// View renders the form in w cells and at most h lines, keeping the
// focused field in sight.
func (f *Form) View(w, h int, focused bool) []string {
	st := f.st
	if f.Raw {
		f.RawIn.SetWidth(max(10, w-2))
		f.RawIn.SetHeight(max(1, h-2))
		lines := []string{st.Muted.Render("raw JSON · ctrl+t back to fields")}
		lines = append(lines, strings.Split(f.RawIn.View(), "\n")...)
		if f.Err != "" {
			lines = append(lines, render.WrapIndent(st.FieldError.Render("✗ "+f.Err), w, "  ")...)
		}
		return lines
	}
	var lines []string
	focusTop, focusBottom := 0, 0
	if len(f.Fields) == 0 {
		lines = append(lines, st.Muted.Render("no arguments"))
	}
	starts := make([]int, len(f.Fields)) // each field's first line
	for i, fld := range f.Fields {
		starts[i] = len(lines)
		if i == f.Focus {
			focusTop = len(lines)
		}
		lines = append(lines, f.fieldLines(fld, i == f.Focus && focused, w)...)
		if i == f.Focus {
			focusBottom = len(lines)
		}
	}
	var errLines []string // the form's own error stays in view under the fields
	if f.Err != "" {
		errLines = render.WrapIndent(st.FieldError.Render("✗ "+f.Err), w, "  ")
	}
	if len(lines)+len(errLines) <= h {
		return append(lines, errLines...)
	}
	// Clipped: a line says how many fields are out of view, so that a
	// field below the fold is never a surprise (when there is room for it).
	fh := max(1, h-len(errLines))
	more := fh >= 3
	if more {
		fh--
	}
	top := 0
	if focusBottom > fh {
		top = min(focusTop, focusBottom-fh)
	}
	end := min(len(lines), top+fh)
	out := append([]string(nil), lines[top:end]...)
	if more {
		above, below := 0, 0
		for _, s := range starts {
			switch {
			case s < top:
				above++
			case s >= end:
				below++
			}
		}
		var parts []string
		if above > 0 {
			parts = append(parts, fmt.Sprintf("↑ %d more above", above))
		}
		if below > 0 {
			parts = append(parts, fmt.Sprintf("↓ %d more below", below))
		}
		if len(parts) > 0 {
			out = append(out, render.Cut(st.Muted.Render("  "+strings.Join(parts, " · ")+" (↑/↓ move)"), w))
		}
	}
	return append(out, errLines...)
}

func (f *Form) fieldLines(fld *Field, focused bool, w int) []string {
	st := f.st
	marker := "  "
	label := st.Label
	if focused {
		marker = st.InputFocused.Render("▸ ")
		label = st.InputFocused.Bold(true)
	}
	name := fld.Spec.Name
	if fld.Spec.Title != "" {
		name = render.ServerLine(fld.Spec.Title)
	}
	head := marker + label.Render(render.ServerLine(name))
	if fld.Spec.Required {
		head += st.Required.Render("*")
	}
	hint := fld.Spec.Type()
	if fld.Kind == KindPicker && len(fld.Spec.Enum) > 0 {
		hint = "enum"
	}
	if fld.Kind == KindMulti {
		hint = "choose any"
	}
	if hint == "" {
		hint = "json"
	}
	head += " " + st.Muted.Render(hint)
	if d := render.ServerLine(fld.Spec.Description); d != "" {
		head += st.Faint.Render(" · " + d)
	}
	// The focused field shows its whole description (wrapped); the others
	// keep to one line.
	lines := []string{render.Cut(head, w)}
	if focused {
		lines = render.WrapIndent(head, w, "    ")
	}
	wrapped, value := f.valueLines(fld, focused, w)
	lines = append(lines, wrapped...)
	lines = append(lines, render.Cut("    "+value, w))
	lines = append(lines, f.suggestLines(fld, focused, w)...)
	if fld.Err != "" {
		lines = append(lines, render.WrapIndent("    "+st.FieldError.Render("✗ "+fld.Err), w, "      ")...)
	}
	return lines
}

// valueLines draws a field's value: the line holding the input, picker or
// multi-select (value) and, for a multi-select too wide for one line, the
// full rows of choices above it (wrapped).
func (f *Form) valueLines(fld *Field, focused bool, w int) (wrapped []string, value string) {
	st := f.st
	switch fld.Kind {
	case KindPicker:
		lab := fld.labels[fld.Choice]
		if fld.Choice == 0 {
			lab = st.Faint.Render(lab)
		}
		value = st.Muted.Render("◂ ") + lab + st.Muted.Render(" ▸")
	case KindMulti:
		parts := make([]string, len(fld.Opts))
		for i, l := range fld.labels {
			box := "[ ]"
			if fld.picked[i] {
				box = "[x]"
			}
			p := box + " " + l
			if focused && i == fld.sub {
				p = st.Selected.Render(p)
			}
			parts[i] = p
		}
		// every choice stays on screen: they wrap, one never split
		row := ""
		for _, p := range parts {
			if row != "" && 4+render.Width(row)+2+render.Width(p) > w {
				wrapped = append(wrapped, render.Cut("    "+row, w))
				row = ""
			}
			if row != "" {
				row += "  "
			}
			row += p
		}
		value = row
	default:
		fld.Input.Width = max(4, w-8)
		value = fld.Input.View()
		if focused {
			value = st.InputFocused.Render("[") + value + st.InputFocused.Render("]")
		} else {
			value = st.Muted.Render("[") + value + st.Muted.Render("]")
		}
	}
	return wrapped, value
}
