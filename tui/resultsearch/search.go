package resultsearch

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Search is the call pane's search state.
type Search struct {
	Input  textinput.Model
	Typing bool
	Query  string // the kept query ("" none)
	Hits   []int  // body lines that hold it
	at     int    // index into Hits
}

// Start opens the query line, empty.
func (s *Search) Start(st *themes.Styles) tea.Cmd {
	if s.Input.Prompt == "" {
		s.Input = textinput.New()
		s.Input.Prompt = "search: "
		s.Input.Placeholder = "text in the result"
	}
	s.Input.PromptStyle, s.Input.TextStyle, s.Input.PlaceholderStyle = st.Accent, st.Text, st.Faint
	s.Input.SetValue("")
	s.Typing = true
	return s.Input.Focus()
}

// Key takes a key while the query is typed. closed reports that the query
// line closed (esc or enter: the body is drawn again), kept that the query
// was kept (enter), for the pane to count the hits over the body as drawn
// now and jump to the first.
func (s *Search) Key(msg tea.KeyMsg) (closed, kept bool, cmd tea.Cmd) {
	switch msg.String() {
	case "esc":
		s.Typing, s.Query, s.Hits = false, "", nil
		s.Input.Blur()
		return true, false, nil
	case "enter":
		s.Typing = false
		s.Input.Blur()
		s.Query = s.Input.Value()
		return true, true, nil
	}
	s.Input, cmd = s.Input.Update(msg)
	return false, false, cmd
}

// End forgets the kept query and its hits.
func (s *Search) End() { s.Query, s.Hits = "", nil }

// FindHits lists the body lines holding the query, case folded.
func FindHits(body []string, q string) []int {
	if q == "" {
		return nil
	}
	q = strings.ToLower(q)
	var hits []int
	for i, l := range body {
		if strings.Contains(strings.ToLower(render.StripANSI(l)), q) {
			hits = append(hits, i)
		}
	}
	return hits
}

// Jump picks the next (dir 1) or previous (-1) hit from the view's top
// line; first picks the first hit at or below it. moved says the view is
// to scroll to offset; ok is false when the query is on no line (nothing
// moves).
func (s *Search) Jump(top, dir int, first bool) (offset int, moved, ok bool) {
	if s.Query == "" {
		return 0, false, true
	}
	if len(s.Hits) == 0 {
		return 0, false, false
	}
	switch {
	case first:
		s.at = 0
		for i, l := range s.Hits {
			if l >= top {
				s.at = i
				break
			}
		}
	default:
		s.at = (s.at + dir + len(s.Hits)) % len(s.Hits)
	}
	return max(0, s.Hits[s.at]-1), true, true
}

// Highlight draws a body with every match of q reversed; lines without one
// keep their colours.
func Highlight(st *themes.Styles, body []string, q string) []string {
	if q == "" {
		return body
	}
	out := make([]string, len(body))
	lq := strings.ToLower(q)
	for i, l := range body {
		plain := render.StripANSI(l)
		low := strings.ToLower(plain)
		if !strings.Contains(low, lq) || len(low) != len(plain) {
			out[i] = l
			if len(low) != len(plain) && strings.Contains(low, lq) {
				out[i] = st.Selected.Render(plain) // case folding changed lengths: mark the line
			}
			continue
		}
		var b strings.Builder
		for {
			k := strings.Index(low, lq)
			if k < 0 {
				b.WriteString(plain)
				break
			}
			b.WriteString(plain[:k])
			b.WriteString(st.Selected.Render(plain[k : k+len(lq)]))
			plain, low = plain[k+len(lq):], low[k+len(lq):]
		}
		out[i] = b.String()
	}
	return out
}

// Line is the line above the result while a search is on ("" none).
func (s *Search) Line(st *themes.Styles, w int) string {
	if s.Typing {
		s.Input.Width = max(4, w-10)
		return render.Cut(s.Input.View(), w)
	}
	if s.Query == "" {
		return ""
	}
	pos := "no match"
	if len(s.Hits) > 0 {
		pos = strconv.Itoa(s.at+1) + " of " + strconv.Itoa(len(s.Hits)) + " lines"
	}
	return render.Cut(st.Accent.Render("search: ")+render.ServerLine(s.Query)+st.Muted.Render("  "+pos+" · n next · N previous · esc end"), w)
}
