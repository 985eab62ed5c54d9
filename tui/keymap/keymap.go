package keymap

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Map is every key the workbench answers, described once: the footer's
// short help and the ? dialog's full help are generated from it.
type Map struct {
	Quit, Help, NextPane, PrevPane          key.Binding
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Enter, Back, Filter, Details            key.Binding
	Approve, Reconnect, Disconnect, Accept  key.Binding
	Ping                                    key.Binding
	Cancel, History, Export, Replay, Load   key.Binding
	PrevTab, NextTab                        key.Binding
	Submit, RawJSON, FieldNext, FieldPrev   key.Binding
	PickPrev, PickNext, Toggle              key.Binding
	Palette, AllTools, Zoom                 key.Binding
	// Mouse is listed in ? only: no key matches it (tui's mouse.go).
	Mouse                          key.Binding
	Search, SearchNext, SearchPrev key.Binding
	Yank, YankCommand, Save        key.Binding
	EditValue                      key.Binding
	// The client's side: log levels, subscriptions, links, previews,
	// tasks (tui's clientreq.go, tasks.go), roots and the call timeout
	// (clientside.go).
	LogLevel, LogFilter, Watch, OpenLink, Preview key.Binding
	CallTask, ListTasks, Roots, CallTimeout       key.Binding
	Wire                                          key.Binding // the protocol view (tui's wireview_open.go)
	Bench                                         key.Binding // load a tool (bench.go)
}

// New is the workbench's keys.
func New() Map {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return Map{
		Quit:        b([]string{"q", "ctrl+c"}, "q", "quit"),
		Help:        b([]string{"?"}, "?", "help"),
		NextPane:    b([]string{"tab"}, "tab", "focus"),
		PrevPane:    b([]string{"shift+tab"}, "shift+tab", "focus back"),
		Up:          b([]string{"up", "k"}, "↑/k", "up"),
		Down:        b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:      b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown:    b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:         b([]string{"home", "g"}, "g", "top"),
		Bottom:      b([]string{"end", "G"}, "G", "bottom"),
		Enter:       b([]string{"enter"}, "enter", "open"),
		Back:        b([]string{"esc"}, "esc", "back"),
		Filter:      b([]string{"/"}, "/", "filter"),
		Details:     b([]string{"i"}, "i", "details"),
		Approve:     b([]string{"a"}, "a", "approve"),
		Accept:      b([]string{"A"}, "A", "accept changed tool"),
		Reconnect:   b([]string{"r"}, "r", "reconnect"),
		Disconnect:  b([]string{"x"}, "x", "disconnect"),
		Ping:        b([]string{"p"}, "p", "ping"),
		Cancel:      b([]string{"c"}, "c", "cancel call"),
		History:     b([]string{"h"}, "h", "history"),
		Export:      b([]string{"e"}, "e", "export JSONL"),
		Replay:      b([]string{"enter"}, "enter", "replay"),
		Load:        b([]string{"l"}, "l", "load into form"),
		PrevTab:     b([]string{"["}, "[", "prev tab"),
		NextTab:     b([]string{"]"}, "]", "next tab"),
		Submit:      b([]string{"ctrl+s"}, "ctrl+s", "send"),
		RawJSON:     b([]string{"ctrl+t"}, "ctrl+t", "raw JSON"),
		FieldNext:   b([]string{"down", "enter"}, "↓/enter", "next field"),
		FieldPrev:   b([]string{"up"}, "↑", "prev field"),
		PickPrev:    b([]string{"left"}, "←", "prev choice"),
		PickNext:    b([]string{"right"}, "→", "next choice"),
		Toggle:      b([]string{" "}, "space", "toggle"),
		Palette:     b([]string{":", "ctrl+p"}, ":", "palette"),
		AllTools:    b([]string{"ctrl+a"}, "ctrl+a", "all servers' tools"),
		Zoom:        b([]string{"z"}, "z", "zoom the pane"),
		Mouse:       b([]string{"mouse"}, "mouse", "click, wheel"),
		Search:      b([]string{"/"}, "/", "search the result"),
		SearchNext:  b([]string{"n"}, "n", "next match"),
		SearchPrev:  b([]string{"N"}, "N", "previous match"),
		Yank:        b([]string{"y"}, "y", "copy the result"),
		YankCommand: b([]string{"Y"}, "Y", "copy as a CLI command"),
		Save:        b([]string{"s"}, "s", "save the result"),
		EditValue:   b([]string{"ctrl+o"}, "ctrl+o", "edit an object/array on many lines"),
		LogLevel:    b([]string{"L"}, "L", "server log level"),
		LogFilter:   b([]string{"v"}, "v", "logs shown"),
		Watch:       b([]string{"w"}, "w", "subscribe"),
		OpenLink:    b([]string{"o"}, "o", "open resource link"),
		Preview:     b([]string{"p"}, "p", "preview image"),
		CallTask:    b([]string{"t"}, "t", "call as a task"),
		ListTasks:   b([]string{"t"}, "t", "the server's tasks"),
		Roots:       b([]string{"R"}, "R", "roots"),
		CallTimeout: b([]string{"T"}, "T", "call timeout"),
		Wire:        b([]string{"W"}, "W", "protocol view"),
		Bench:       b([]string{"b"}, "b", "load the tool"),
	}
}

// FullHelp is the ? dialog's content, grouped by column.
func (k Map) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.NextPane, k.PrevPane, k.Zoom, k.Mouse, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Palette, k.Enter, k.Back, k.Filter, k.Details, k.Accept, k.PrevTab, k.NextTab, k.AllTools},
		{k.Approve, k.Reconnect, k.Disconnect, k.Ping, k.Cancel, k.History, k.Export, k.Load},
		{k.Search, k.SearchNext, k.SearchPrev, k.Yank, k.YankCommand, k.Save, k.OpenLink, k.Preview, k.Watch},
		{k.LogLevel, k.LogFilter, k.CallTask, k.ListTasks, k.Bench, k.Roots, k.CallTimeout, k.Wire},
		{k.Submit, k.RawJSON, k.EditValue, k.FieldNext, k.FieldPrev, k.PickPrev, k.PickNext, k.Toggle, k.Help, k.Quit},
	}
}

// Split turns a message holding several typed runes into one key per
// rune. Bubble Tea delivers runes read together as one message (keys typed
// or repeated faster than the program reads them), and a binding matches
// one key only: "jj" would move nothing and "/note" open no filter. A paste
// stays whole: it is text, never a run of commands.
func Split(msg tea.KeyMsg) []tea.KeyMsg {
	if msg.Type != tea.KeyRunes || msg.Paste || len(msg.Runes) < 2 {
		return []tea.KeyMsg{msg}
	}
	out := make([]tea.KeyMsg, 0, len(msg.Runes))
	for _, r := range msg.Runes {
		k := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}
		if r == ' ' {
			k.Type = tea.KeySpace
		}
		out = append(out, k)
	}
	return out
}
