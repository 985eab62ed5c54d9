package dialog

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fields"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/form"
	"github.com/relavium/relavium/tui/render"
)

// Elicit is a server's elicitation request as a form: accept (with the
// content), decline, or cancel (Esc).
type Elicit struct {
	Request *engine.ElicitRequest
	// Answer turns the person's response into the dialog's Action.
	Answer  func(engine.ElicitResponse) Action
	Form    *form.Form
	Err     string               // the schema could not be read: only decline/cancel
	schema  *jsonschema.Resolved // the requested schema, checked before accept (nil: not compilable, the server judges)
	rawJSON key.Binding
	box     box
}

// NewElicit builds the form for r's requested schema; rawJSON is the
// binding that toggles the form's raw JSON.
func NewElicit(st *themes.Styles, r *engine.ElicitRequest, rawJSON key.Binding, answer func(engine.ElicitResponse) Action) *Elicit {
	d := &Elicit{Request: r, Answer: answer, rawJSON: rawJSON}
	specs, err := fields.Of(r.Schema)
	if err != nil {
		d.Err = err.Error()
	}
	d.Form = form.New(st, specs, nil)
	var s jsonschema.Schema
	if json.Unmarshal(r.Schema, &s) == nil {
		if rs, err := s.Resolve(nil); err == nil {
			d.schema = rs
		}
	}
	return d
}

func (d *Elicit) accept() (Action, tea.Cmd) {
	if d.Err != "" {
		return nil, nil
	}
	raw, ok := d.Form.Args()
	if !ok {
		return nil, nil
	}
	// Integers stay exact (int64, not float64: an integer past 2^53 is
	// sent as typed, as every surface sends it); other numbers are float64.
	var content map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&content); err != nil {
		d.Form.Err = err.Error()
		return nil, nil
	}
	for k, v := range content {
		content[k] = goNumbers(v)
	}
	// Checked here, not by the server's client library after the answer
	// left (which fails the whole call): the dialog stays open.
	if !d.Form.RequireFilled(content) {
		return nil, nil
	}
	if d.schema != nil {
		var v any
		_ = json.Unmarshal(raw, &v) // raw decoded above
		if err := d.schema.Validate(v); err != nil {
			d.Form.Err = "does not match the requested schema: " + discovery.Explain(err)
			return nil, nil
		}
	}
	d.Form.Err = ""
	return d.Answer(engine.ElicitResponse{Action: "accept", Content: content}), nil
}

// Handle takes a key (Dialog).
func (d *Elicit) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	switch msg.String() {
	case "esc":
		return d.Answer(engine.ElicitResponse{Action: "cancel"}), nil
	case "ctrl+d":
		return d.Answer(engine.ElicitResponse{Action: "decline"}), nil
	case "ctrl+s":
		return d.accept()
	case "tab":
		d.Form.FocusField(d.Form.Focus + 1)
		return nil, nil
	case "shift+tab":
		d.Form.FocusField(d.Form.Focus - 1)
		return nil, nil
	case "enter":
		if d.Form.AtLast() && !d.Form.Raw {
			return d.accept()
		}
		if !d.Form.Raw {
			d.Form.FocusField(d.Form.Focus + 1)
			return nil, nil
		}
	case "pgup", "pgdown":
		scrollKey(msg, &d.box.scroll)
		return nil, nil
	}
	cmd, _ := d.Form.Update(msg, d.rawJSON)
	return nil, cmd
}

// View draws the dialog within the w×h screen (Dialog).
func (d *Elicit) View(st *themes.Styles, w, h int) string {
	dw := Width(w, 90)
	iw := InnerWidth(dw)
	server := d.Request.Server
	var body []string
	body = append(body, render.Wrap(st.Advisory.Render(sanitize.ExternalLabel(server)), iw)...)
	body = append(body, render.StyledWrap(st.Text, render.ServerText(d.Request.Message), iw)...)
	body = append(body, "")
	if d.Err != "" {
		body = append(body, render.Wrap(st.Error.Render("the requested schema cannot be shown as a form: "+d.Err), iw)...)
	} else {
		body = append(body, d.Form.View(iw, max(3, h-10), true)...)
	}
	d.box.title = render.ServerLine(server) + " asks for input"
	d.box.body = body
	d.box.actions = buttons(st, []string{"[ctrl+s] Accept", "[ctrl+d] Decline", "[esc] Cancel"}, -1)
	return d.box.render(st, dw, h)
}

// goNumbers replaces the json.Numbers of a decoded value with int64 where
// the literal is an integer int64 holds, float64 otherwise: the answer's
// receiver validates Go numbers (a json.Number is a string to it).
func goNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(x), 64) // the form typed a finite number
		return f
	case []any:
		for i := range x {
			x[i] = goNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = goNumbers(x[k])
		}
	}
	return v
}
