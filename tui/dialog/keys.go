package dialog

import (
	"reflect"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"

	"github.com/relavium/relavium/themes"
)

// Keyed is a dialog that lists its own keys: the footer shows them while
// it is on top, and ? opens them in full.
type Keyed interface {
	Keys() []key.Binding
}

// Typing is a dialog that takes text (a form, a search box): there q and ?
// are letters, not commands; ctrl+c still quits.
type Typing interface {
	TakesText() bool
}

// Bidden is a dialog the person opens with a key of their own to type
// into (the palette, the larger editor): it takes the keys typed right
// after that key, where a dialog that appears on its own (consent, a
// confirmation, a server's question) waits out its grace.
type Bidden interface {
	Bidden() bool
}

// IsBidden reports whether d is such a dialog.
func IsBidden(d Dialog) bool {
	b, ok := d.(Bidden)
	return ok && b.Bidden()
}

// Bidden reports that the palette is opened by the person (Bidden).
func (p *Palette) Bidden() bool { return true }

// Bidden reports that the editor is opened by the person (Bidden).
func (e *Editor) Bidden() bool { return true }

// TakesText reports whether d takes text.
func TakesText(d Dialog) bool {
	t, ok := d.(Typing)
	return ok && t.TakesText()
}

// KeysOf is d's key list (none when it does not list them).
func KeysOf(d Dialog) []key.Binding {
	if k, ok := d.(Keyed); ok {
		return k.Keys()
	}
	return nil
}

// Same reports whether a and b are the same open dialog: pointers by
// identity, anything else by type (a dialog held by value cannot be told
// apart from an equal one, and comparing it could panic).
func Same(a, b Dialog) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Type() != vb.Type() {
		return false
	}
	if va.Kind() == reflect.Pointer {
		return va.Pointer() == vb.Pointer()
	}
	return true
}

func bind(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// Keys lists the consent dialog's keys (Keyed).
func (d *Consent) Keys() []key.Binding {
	return []key.Binding{
		bind("A", "approve & remember", "A"), bind("o", "approve once", "o"), bind("d/n/esc", "deny", "d", "n", "esc"),
		bind("←/→", "choose", "left", "right"), bind("enter", "answer the chosen", "enter"), bind("↑/↓", "scroll", "up", "down"),
	}
}

// Keys lists the tool confirmation's keys (Keyed).
func (d *ToolConfirm) Keys() []key.Binding {
	b := []key.Binding{bind("y", "this call", "y")}
	if !d.Tool.Changed {
		b = append(b, bind("A", "always for this definition", "A"))
	}
	return append(b, bind("n/esc", "no", "n", "esc"), bind("←/→", "choose", "left", "right"),
		bind("enter", "answer the chosen", "enter"), bind("↑/↓", "scroll", "up", "down"))
}

// Keys lists a yes/no dialog's keys.
func yesNoKeys() []key.Binding {
	return []key.Binding{bind("y", "yes", "y"), bind("n/esc", "no", "n", "esc"), bind("←/→", "choose", "left", "right"),
		bind("enter", "answer the chosen", "enter"), bind("↑/↓", "scroll", "up", "down")}
}

// Keys lists the confirmation's keys (Keyed).
func (d *Confirm) Keys() []key.Binding { return yesNoKeys() }

// Keys lists the accept dialog's keys (Keyed).
func (d *Accept) Keys() []key.Binding { return yesNoKeys() }

// Keys lists the text box's keys (Keyed).
func (d *Text) Keys() []key.Binding {
	return []key.Binding{bind("esc", "close", "esc"), bind("↑/↓", "scroll", "up", "down")}
}

// Keys lists the elicitation's keys (Keyed).
func (d *Elicit) Keys() []key.Binding {
	return []key.Binding{bind("ctrl+s", "accept", "ctrl+s"), bind("ctrl+d", "decline", "ctrl+d"), bind("esc", "cancel", "esc"),
		bind("tab/shift+tab", "field", "tab", "shift+tab"), bind("ctrl+t", "raw JSON", "ctrl+t")}
}

// TakesText reports that the elicitation form takes text (Typing).
func (d *Elicit) TakesText() bool { return true }

// NewKeys shows a dialog's keys in full (? over a dialog), with q and
// ctrl+c, which work in every dialog that does not take text.
func NewKeys(keys []key.Binding, h help.Model) *Text {
	keys = append(keys, bind("q/ctrl+c", "quit relavium", "q", "ctrl+c"), bind("?", "these keys", "?"))
	return &Text{Title: "Keys of this dialog", Max: 80, Lines: func(st *themes.Styles, iw int) []string {
		return helpRows(h, [][]key.Binding{keys}, iw)
	}}
}
