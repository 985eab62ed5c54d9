package dialog

import (
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// PaletteItem is one entry of the command palette: what it is (action,
// server, tool, prompt, resource, workflow…), its title, a hint drawn on
// the right (a key, a server), and the Action choosing it returns.
type PaletteItem struct {
	Kind, Title, Hint string
	Do                Action
}

// Palette is the command palette: a query and the items that match it
// fuzzily (the query's letters in order, words' starts and runs scoring
// higher), best first. Enter chooses; esc closes.
type Palette struct {
	Items []PaletteItem
	input textinput.Model
	shown []int // indices into Items, best first
	sel   int
	off   int
	box   box
}

// maxPaletteItems bounds what a palette holds (a server may list
// thousands of resources; the palette shows the first ones it is given).
const maxPaletteItems = 5000

// NewPalette opens a palette over items.
func NewPalette(st *themes.Styles, items []PaletteItem) *Palette {
	if len(items) > maxPaletteItems {
		items = items[:maxPaletteItems]
	}
	p := &Palette{Items: items, input: textinput.New()}
	p.input.Prompt = ": "
	p.input.Placeholder = "type to search actions, servers, tools, prompts, resources, workflows"
	p.input.PromptStyle, p.input.TextStyle, p.input.PlaceholderStyle = st.Accent, st.Text, st.Faint
	p.input.Cursor.Style = st.Renderer.NewStyle().Reverse(true)
	p.input.Cursor.SetMode(cursor.CursorStatic)
	p.input.Focus()
	p.refilter()
	return p
}

// SetItems replaces the entries (lists loaded since the palette opened),
// keeping the query and, where it is still listed, the chosen entry.
func (p *Palette) SetItems(items []PaletteItem) {
	if len(items) > maxPaletteItems {
		items = items[:maxPaletteItems]
	}
	var chosen string
	if p.sel < len(p.shown) {
		it := p.Items[p.shown[p.sel]]
		chosen = it.Kind + "\x00" + it.Title + "\x00" + it.Hint
	}
	p.Items = items
	p.refilter()
	for n, i := range p.shown {
		if it := p.Items[i]; it.Kind+"\x00"+it.Title+"\x00"+it.Hint == chosen {
			p.sel = n
		}
	}
}

// TakesText reports that the palette's query takes text (Typing).
func (p *Palette) TakesText() bool { return true }

// Keys lists the palette's keys (Keyed).
func (p *Palette) Keys() []key.Binding {
	return []key.Binding{bind("enter", "choose", "enter"), bind("↑/↓", "move", "up", "down"), bind("esc", "close", "esc")}
}

// Query is the text typed so far.
func (p *Palette) Query() string { return p.input.Value() }

// Handle takes a key (Dialog).
func (p *Palette) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	switch msg.String() {
	case "esc":
		return Close{}, nil
	case "enter":
		if p.sel < len(p.shown) {
			return p.Items[p.shown[p.sel]].Do, nil
		}
		return nil, nil
	case "up", "ctrl+p", "shift+tab":
		p.sel = max(0, p.sel-1)
		return nil, nil
	case "down", "ctrl+n", "tab":
		p.sel = min(len(p.shown)-1, p.sel+1)
		return nil, nil
	case "pgup":
		p.sel = max(0, p.sel-10)
		return nil, nil
	case "pgdown":
		p.sel = max(0, min(len(p.shown)-1, p.sel+10))
		return nil, nil
	}
	before := p.input.Value()
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	if p.input.Value() != before {
		p.refilter()
	}
	return nil, cmd
}

func (p *Palette) refilter() {
	q := p.input.Value()
	type scored struct{ i, tier, s int }
	var hits []scored
	for i, it := range p.Items {
		if s, ok := FuzzyScore(q, it.Kind+" "+it.Title+" "+it.Hint); ok {
			if _, inTitle := FuzzyScore(q, it.Title); inTitle {
				s += titleBonus // the letters within the title, not straddling its hint
			}
			hits = append(hits, scored{i, TitleTier(q, it.Title), s})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool {
		if hits[a].tier != hits[b].tier {
			return hits[a].tier > hits[b].tier
		}
		return hits[a].s > hits[b].s
	})
	p.shown = p.shown[:0]
	for _, h := range hits {
		p.shown = append(p.shown, h.i)
	}
	p.sel, p.off = 0, 0
}

// titleBonus lifts an entry whose title alone holds the query's letters
// over one that matches only across its kind, title and hint ("mcpecho"
// is mcp_demo_echo, not a tool whose name ends in c…h and whose server is
// demo).
const titleBonus = 100

// TitleTier ranks what the query is to an entry's title before any fuzzy
// score: 2 when the title starts with the query, 1 when each word of the
// query is a whole word of the title, 0 otherwise. So "connect" puts
// "Connect a server…" before "Reconnect everything", whatever the letters'
// scores.
func TitleTier(q, title string) int {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return 0
	}
	t := strings.ToLower(title)
	if strings.HasPrefix(t, strings.Join(words, " ")) {
		return 2
	}
	titleWords := strings.FieldsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		found := false
		for _, tw := range titleWords {
			if tw == w {
				found = true
				break
			}
		}
		if !found {
			return 0
		}
	}
	return 1
}

// FuzzyScore matches q's letters in order, case folded, within s; spaces
// in q separate words. A word of q found whole in s, a letter at the start
// of a word, or one right after the letter matched before it, scores
// more; an empty query matches everything with score 0.
func FuzzyScore(q, s string) (int, bool) {
	words := strings.Fields(strings.ToLower(q))
	q = strings.Join(words, "")
	if q == "" {
		return 0, true
	}
	bonus := 0
	for _, w := range words { // a word typed whole counts most
		if strings.Contains(strings.ToLower(s), w) {
			bonus += 10 * len(w)
		}
	}
	rs := []rune(strings.ToLower(s))
	orig := []rune(s)
	qi, score, last := 0, 0, -2
	qr := []rune(q)
	for i := 0; i < len(rs) && qi < len(qr); i++ {
		if rs[i] != qr[qi] {
			continue
		}
		switch {
		case i == last+1:
			score += 5
		case i == 0 || !unicode.IsLetter(orig[i-1]) && !unicode.IsDigit(orig[i-1]):
			score += 8
		case unicode.IsUpper(orig[i]):
			score += 4
		default:
			score++
		}
		last = i
		qi++
	}
	if qi < len(qr) {
		return 0, false
	}
	return bonus + score - len(rs)/16, true // shorter texts first among equals
}

// View draws the palette within the w×h screen (Dialog).
func (p *Palette) View(st *themes.Styles, w, h int) string {
	dw := Width(w, 90)
	iw := InnerWidth(dw)
	p.input.Width = max(4, iw-4)
	room := max(1, min(14, h-8))
	p.off = max(0, min(p.off, len(p.shown)-1))
	if p.sel < p.off {
		p.off = p.sel
	}
	if p.sel >= p.off+room {
		p.off = p.sel - room + 1
	}
	body := []string{render.Cut(p.input.View(), iw), ""}
	if len(p.shown) == 0 {
		body = append(body, st.Muted.Render("nothing matches"))
	}
	kindW := 0
	for _, i := range p.shown {
		kindW = max(kindW, render.Width(p.Items[i].Kind))
	}
	for n := p.off; n < len(p.shown) && n < p.off+room; n++ {
		it := p.Items[p.shown[n]]
		left := st.Muted.Render(render.Fit(it.Kind, kindW)) + "  " + render.ServerLine(it.Title)
		line := render.SpaceBetween(left, st.Faint.Render(render.ServerLine(it.Hint)), iw-2)
		if n == p.sel {
			body = append(body, st.Selected.Render("▸ "+render.Fit(render.StripANSI(line), iw-2)))
		} else {
			body = append(body, "  "+line)
		}
	}
	for len(body) < room+2 {
		body = append(body, "")
	}
	p.box.title = "Command palette"
	p.box.body = body
	p.box.actions = st.Muted.Render(render.Cut(countLine(len(p.shown), len(p.Items))+" · enter choose · ↑/↓ move · esc close", iw))
	return p.box.render(st, dw, h)
}

func countLine(n, of int) string {
	if n == of {
		return strconv.Itoa(n) + " entries"
	}
	return strconv.Itoa(n) + " of " + strconv.Itoa(of)
}
