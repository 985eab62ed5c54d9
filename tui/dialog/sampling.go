package dialog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Sampling is a server's sampling/createMessage put to the person, who is
// the model: the whole request (every text already cleaned by the host),
// and an editor for the reply with its role and stop reason. ctrl+s sends
// the reply, ctrl+d or esc declines.
type Sampling struct {
	Request *engine.SampleRequest
	// Answer turns the person's response into the dialog's Action.
	Answer func(engine.SampleResponse) Action
	Reply  textarea.Model
	Role   string // assistant or user
	Stop   string // endTurn, stopSequence or maxTokens
	Err    string
	box    box
}

var (
	sampleRoles = []string{"assistant", "user"}
	sampleStops = []string{"endTurn", "stopSequence", "maxTokens"}
)

// NewSampling builds the dialog for r, the reply empty and focused.
func NewSampling(st *themes.Styles, r *engine.SampleRequest, answer func(engine.SampleResponse) Action) *Sampling {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = "│ "
	ta.CharLimit = 64 << 10
	ta.Placeholder = "the reply the server gets, as the model's message"
	focused := textarea.Style{Base: st.Renderer.NewStyle(), Text: st.Text, Prompt: st.Accent,
		Placeholder: st.Muted, CursorLine: st.Text, CursorLineNumber: st.Muted, EndOfBuffer: st.Muted, LineNumber: st.Muted}
	ta.FocusedStyle, ta.BlurredStyle = focused, focused
	ta.Cursor.Style = st.Renderer.NewStyle().Reverse(true)
	ta.Cursor.TextStyle = st.Text
	ta.Cursor.SetMode(cursor.CursorStatic)
	ta.SetHeight(4)
	ta.Focus()
	return &Sampling{Request: r, Answer: answer, Reply: ta, Role: sampleRoles[0], Stop: sampleStops[0]}
}

// next is the choice after cur in choices, cyclically.
func next(choices []string, cur string) string {
	for i, c := range choices {
		if c == cur {
			return choices[(i+1)%len(choices)]
		}
	}
	return choices[0]
}

// Handle takes a key (Dialog).
func (d *Sampling) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	switch msg.String() {
	case "esc", "ctrl+d":
		return d.Answer(engine.SampleResponse{Action: engine.SampleDecline}), nil
	case "ctrl+s":
		if strings.TrimSpace(d.Reply.Value()) == "" {
			d.Err = "write the reply first (or decline with ctrl+d)"
			return nil, nil
		}
		return d.Answer(engine.SampleResponse{Action: engine.SampleAccept, Role: d.Role, Text: d.Reply.Value(), StopReason: d.Stop}), nil
	case "ctrl+r":
		d.Role = next(sampleRoles, d.Role)
		return nil, nil
	case "ctrl+e":
		d.Stop = next(sampleStops, d.Stop)
		return nil, nil
	case "pgup", "pgdown":
		scrollKey(msg, &d.box.scroll)
		return nil, nil
	}
	d.Err = ""
	var cmd tea.Cmd
	d.Reply, cmd = d.Reply.Update(msg)
	return nil, cmd
}

// View draws the dialog within the w×h screen (Dialog).
func (d *Sampling) View(st *themes.Styles, w, h int) string {
	dw := Width(w, 100)
	iw := InnerWidth(dw)
	r := d.Request
	var body []string
	add := func(style func(...string) string, s string) { body = append(body, render.Wrap(style(s), iw)...) }
	label := func(s string) string { return st.Label.Render(s) }
	add(st.Advisory.Render, sanitize.ExternalLabel(r.Server)+" asks its client's model for a message; you are the model")
	facts := []string{"max tokens " + strconv.FormatInt(r.MaxTokens, 10)}
	if r.Temperature != 0 {
		facts = append(facts, "temperature "+strconv.FormatFloat(r.Temperature, 'g', -1, 64))
	}
	if r.IncludeContext != "" {
		facts = append(facts, "include context "+r.IncludeContext)
	}
	if len(r.StopSequences) > 0 {
		facts = append(facts, "stop at "+strings.Join(quoteEach(r.StopSequences), ", "))
	}
	add(st.Text.Render, strings.Join(facts, " · "))
	if len(r.ModelPreferences) > 0 {
		add(st.Text.Render, label("model preferences ")+render.ServerLine(string(r.ModelPreferences)))
	}
	if r.SystemPrompt != "" {
		body = append(body, label("system prompt"))
		body = append(body, render.StyledWrap(st.Text, render.ServerText(r.SystemPrompt), iw)...)
	}
	body = append(body, label(fmt.Sprintf("messages (%d)", len(r.Messages))))
	for _, m := range r.Messages {
		for _, c := range m.Content {
			text := c.Text
			if c.Type != engine.ContentText {
				text = fmt.Sprintf("(%s %s, %s)", c.Type, c.MIMEType, c.Text)
			}
			body = append(body, render.StyledWrap(st.Text, st.Accent.Render("["+render.ServerLine(m.Role)+"] ")+render.ServerText(text), iw)...)
		}
	}
	if len(r.Tools) > 0 {
		choice := ""
		if r.ToolChoice != "" {
			choice = ", tool choice " + r.ToolChoice
		}
		body = append(body, label(fmt.Sprintf("tools offered (%d%s)", len(r.Tools), choice)))
		for _, t := range r.Tools {
			add(st.Text.Render, "• "+render.ServerLine(t.Name)+" "+st.Muted.Render(render.ServerLine(t.Description)))
		}
	}
	body = append(body, "", label("your reply")+st.Muted.Render(" · role ")+st.Accent.Render(d.Role)+st.Muted.Render(" (ctrl+r) · stop reason ")+
		st.Accent.Render(d.Stop)+st.Muted.Render(" (ctrl+e)"))
	d.Reply.SetWidth(max(10, iw))
	body = append(body, strings.Split(d.Reply.View(), "\n")...)
	if d.Err != "" {
		body = append(body, st.FieldError.Render(d.Err))
	}
	d.box.title = render.ServerLine(r.Server) + " asks for a sampling reply"
	d.box.body = body
	d.box.actions = buttons(st, []string{"[ctrl+s] Send reply", "[ctrl+d] Decline", "[pgup/pgdn] scroll"}, -1)
	return d.box.render(st, dw, h)
}

func quoteEach(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}
