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
func (p *callPane) startSearch() tea.Cmd {
	s := &p.search
	if s.input.Prompt == "" {
		s.input = textinput.New()
		s.input.Prompt = "search: "
		s.input.Placeholder = "text in the result"
	}
	s.input.PromptStyle, s.input.TextStyle, s.input.PlaceholderStyle = p.st.Accent, p.st.Text, p.st.Faint
	s.input.SetValue("")
	s.typing = true
	return s.input.Focus()
}

// searchKey takes a key while the query is typed; it reports whether
// the query was kept (enter), for the root to count the hits over the body
// as drawn now and jump to the first.
func (p *callPane) searchKey(msg tea.KeyMsg) (bool, tea.Cmd) {
	s := &p.search
	switch msg.String() {
	case "esc":
		s.typing, s.query, s.hits = false, "", nil
		s.input.Blur()
		p.vpKey = vpKey{}
		return false, nil
	case "enter":
		s.typing = false
		s.input.Blur()
		s.query = s.input.Value()
		p.vpKey = vpKey{}
		return true, nil
	}
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(msg)
	return false, cmd
}

// searchKey takes a key while the result's query is typed.
func (m *Model) searchKey(msg tea.KeyMsg) tea.Cmd {
	kept, cmd := m.call.searchKey(msg)
	if kept {
		m.syncViewport() // the hits are counted over the body as drawn now
		if !m.call.jumpHit(0, true) {
			m.noHit()
		}
	}
	return cmd
}

// noHit says the kept query is on no line of the result.
func (m *Model) noHit() {
	m.status.set("no line of this result holds "+strconv.Quote(m.call.search.query), false)
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
// top; first picks the first hit at or below it. It reports false when the
// query is on no line (nothing moves).
func (p *callPane) jumpHit(dir int, first bool) bool {
	s := &p.search
	if s.query == "" {
		return true
	}
	if len(s.hits) == 0 {
		return false
	}
	top := p.vp.YOffset
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
	p.vp.SetYOffset(max(0, s.hits[s.at]-1))
	p.follow = false
	return true
}

// highlight draws a body with every match of q reversed; lines without one
// keep their colours.
func (p *callPane) highlight(body []string, q string) []string {
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
				out[i] = p.st.Selected.Render(plain) // case folding changed lengths: mark the line
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
			b.WriteString(p.st.Selected.Render(plain[k : k+len(lq)]))
			plain, low = plain[k+len(lq):], low[k+len(lq):]
		}
		out[i] = b.String()
	}
	return out
}

// searchLine is the line above the result while a search is on.
func (p *callPane) searchLine(w int) string {
	s := &p.search
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
	return render.Cut(p.st.Accent.Render("search: ")+render.ServerLine(s.query)+p.st.Muted.Render("  "+pos+" · n next · N previous · esc end"), w)
}
