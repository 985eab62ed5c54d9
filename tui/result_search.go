package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/tui/render"
)

// Search inside the result on show: / types a query (a fresh one each
// time), enter keeps it, n and N go to the next and previous line that
// holds it, esc ends it. Matches are highlighted (the line is drawn plain
// with each match reversed, so the highlight reads without colour).

// resultSearch is the call pane's search state.
type resultSearch struct {
	input  textinput.Model
	typing bool
	query  string // the kept query ("" none)
	hits   []int  // body lines that hold it
	at     int    // index into hits
}

// startSearch opens the query line, empty.
func (m *Model) startSearch() tea.Cmd {
	s := &m.call.search
	if s.input.Prompt == "" {
		s.input = textinput.New()
		s.input.Prompt = "search: "
		s.input.Placeholder = "text in the result"
	}
	s.input.PromptStyle, s.input.TextStyle, s.input.PlaceholderStyle = m.st.Accent, m.st.Text, m.st.Faint
	s.input.SetValue("")
	s.typing = true
	return s.input.Focus()
}

// searchKey takes a key while the query is typed.
func (m *Model) searchKey(msg tea.KeyMsg) tea.Cmd {
	s := &m.call.search
	switch msg.String() {
	case "esc":
		s.typing, s.query, s.hits = false, "", nil
		s.input.Blur()
		m.call.vpKey = vpKey{}
		return nil
	case "enter":
		s.typing = false
		s.input.Blur()
		s.query = s.input.Value()
		m.call.vpKey = vpKey{}
		m.syncViewport() // the hits are counted over the body as drawn now
		m.jumpHit(0, true)
		return nil
	}
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(msg)
	return cmd
}

// findHits lists the body lines holding the query, case folded.
func findHits(body []string, q string) []int {
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

// jumpHit moves to the next (dir 1) or previous (-1) hit from the view's
// top; first picks the first hit at or below it.
func (m *Model) jumpHit(dir int, first bool) {
	s := &m.call.search
	if s.query == "" {
		return
	}
	if len(s.hits) == 0 {
		m.status.set("no line of this result holds "+strconv.Quote(s.query), false)
		return
	}
	top := m.call.vp.YOffset
	switch {
	case first:
		s.at = 0
		for i, l := range s.hits {
			if l >= top {
				s.at = i
				break
			}
		}
	default:
		s.at = (s.at + dir + len(s.hits)) % len(s.hits)
	}
	m.call.vp.SetYOffset(max(0, s.hits[s.at]-1))
	m.call.follow = false
}

// highlight draws a body with every match of q reversed; lines without one
// keep their colours.
func (m *Model) highlight(body []string, q string) []string {
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
				out[i] = m.st.Selected.Render(plain) // case folding changed lengths: mark the line
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
			b.WriteString(m.st.Selected.Render(plain[k : k+len(lq)]))
			plain, low = plain[k+len(lq):], low[k+len(lq):]
		}
		out[i] = b.String()
	}
	return out
}

// searchLine is the line above the result while a search is on.
func (m *Model) searchLine(w int) string {
	s := &m.call.search
	if s.typing {
		s.input.Width = max(4, w-10)
		return render.Cut(s.input.View(), w)
	}
	if s.query == "" {
		return ""
	}
	pos := "no match"
	if len(s.hits) > 0 {
		pos = strconv.Itoa(s.at+1) + " of " + strconv.Itoa(len(s.hits)) + " lines"
	}
	return render.Cut(m.st.Accent.Render("search: ")+render.ServerLine(s.query)+m.st.Muted.Render("  "+pos+" · n next · N previous · esc end"), w)
}
