package wireview

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/host/wire"
	"github.com/relavium/relavium/tui/dialog"
)

// Source is what the protocol and network views read: the session's
// wire hub (always there in a workbench: in memory when --record is not
// given) and where an export goes. The live backend has it; a backend
// without it has no views.
type Source interface {
	Wire() *wire.Hub
	SaveWire(name string, data []byte) (string, error)
}

// RefreshEvery is how often an open view looks for new records.
const RefreshEvery = 250 * time.Millisecond

// View is the protocol view (every JSON-RPC message of a server, both
// directions, grouped request ↔ response) and the network view (each HTTP
// exchange). It is a dialog over the whole screen; the root model only
// opens it and lets it tick.
type View struct {
	hub     *wire.Hub
	server  string // the server the view was opened for
	all     bool   // every server's traffic (a)
	network bool   // the network view (else the protocol view)
	stdio   bool   // the server has no HTTP exchanges

	recs []wire.Record
	xs   []wire.Exchange
	ver  [2]int64
	rows []row // what the list shows, filtered and grouped

	cursor, offset int
	follow         bool // the cursor stays on the newest row
	dir            string
	filter         textinput.Model
	filtering      bool
	expanded       bool
	scroll         int
	detailFor      string
	detail         []string
	note           string // the last export's path, or its failure
	noteErr        bool
	save           func(name string, data []byte) (string, error)
}

// row is one line of the list: a record (grouped: a response right
// under its request) or an exchange.
type row struct {
	rec      *wire.Record
	x        *wire.Exchange
	answered bool // a response shown under its request
}

func New(src Source, server string, stdio, network bool) *View {
	f := textinput.New()
	f.Prompt = "/"
	f.CharLimit = 128
	v := &View{hub: src.Wire(), server: server, stdio: stdio, network: network, follow: true, filter: f, save: src.SaveWire, ver: [2]int64{-1, -1}}
	v.Refresh()
	return v
}

// Refresh reads the hub again when it moved (memory only, no IO); it
// reports whether it did.
func (v *View) Refresh() bool {
	r, x := v.hub.Version()
	if v.ver == [2]int64{r, x} {
		return false
	}
	v.ver = [2]int64{r, x}
	v.recs, v.xs = v.recs[:0], v.xs[:0]
	for _, rec := range v.hub.Recent() {
		if v.all || rec.Server == v.server {
			v.recs = append(v.recs, rec)
		}
	}
	for _, ex := range v.hub.Exchanges() {
		if v.all || ex.Server == v.server {
			v.xs = append(v.xs, ex)
		}
	}
	v.regroup()
	return true
}

// regroup builds the rows from the kept records under the filter and the
// direction: a response follows its request when both are shown.
func (v *View) regroup() {
	q := strings.ToLower(strings.TrimSpace(v.filter.Value()))
	v.rows = v.rows[:0]
	if v.network {
		for i := range v.xs {
			x := &v.xs[i]
			if q == "" || strings.Contains(strings.ToLower(x.RPC+" "+x.Method), q) {
				v.rows = append(v.rows, row{x: x})
			}
		}
	} else {
		v.rows = groupRecords(v.recs, q, v.dir)
	}
	if v.follow || v.cursor >= len(v.rows) {
		v.cursor = max(0, len(v.rows)-1)
	}
}

// groupRecords is the protocol list: every record matching the method
// filter and the direction, a response placed under its request.
func groupRecords(recs []wire.Record, q, dir string) []row {
	type group struct{ rows []row }
	var groups []*group
	open := map[string]*group{} // direction+id of a request shown
	for i := range recs {
		r := &recs[i]
		if dir != "" && r.Dir != dir || q != "" && !strings.Contains(strings.ToLower(r.Method), q) {
			continue
		}
		switch r.Kind {
		case wire.KindResponse, wire.KindError:
			other := wire.Send
			if r.Dir == wire.Send {
				other = wire.Recv
			}
			if g := open[other+string(r.ID)]; g != nil {
				delete(open, other+string(r.ID))
				g.rows = append(g.rows, row{rec: r, answered: true})
				continue
			}
		case wire.KindRequest:
			g := &group{rows: []row{{rec: r}}}
			open[r.Dir+string(r.ID)] = g
			groups = append(groups, g)
			continue
		}
		groups = append(groups, &group{rows: []row{{rec: r}}})
	}
	var rows []row
	for _, g := range groups {
		rows = append(rows, g.rows...)
	}
	return rows
}

// TakesText is true while the filter is typed (q types a q then).
func (v *View) TakesText() bool { return v.filtering }

// Keys lists the view's keys for ? and the footer.
func (v *View) Keys() []key.Binding {
	b := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	return []key.Binding{b("↑↓", "move"), b("enter", "expand"), b("/", "filter method"), b("d", "direction"),
		b("n", "protocol ↔ network"), b("a", "this server ↔ all"), b("e", "export"), b("esc", "close")}
}

// Handle takes a key; esc closes the view (or the expanded message, or the
// filter first).
func (v *View) Handle(msg tea.KeyMsg) (dialog.Action, tea.Cmd) {
	if v.filtering {
		switch msg.String() {
		case "esc":
			v.filtering = false
			v.filter.SetValue("")
			v.filter.Blur()
		case "enter":
			v.filtering = false
			v.filter.Blur()
		default:
			var cmd tea.Cmd
			v.filter, cmd = v.filter.Update(msg)
			v.follow = true
			v.regroup()
			return nil, cmd
		}
		v.regroup()
		return nil, nil
	}
	if v.expanded {
		return v.detailKey(msg)
	}
	switch msg.String() {
	case "esc":
		if v.filter.Value() != "" {
			v.filter.SetValue("")
			v.regroup()
			return nil, nil
		}
		return dialog.Close{}, nil
	case "/":
		v.filtering = true
		v.filter.SetValue("") // a fresh filter, as everywhere in the workbench
		return nil, v.filter.Focus()
	case "d":
		v.dir = map[string]string{"": wire.Send, wire.Send: wire.Recv, wire.Recv: ""}[v.dir]
		v.follow = true
		v.regroup()
	case "n":
		v.network = !v.network
		v.follow, v.cursor = true, 0
		v.regroup()
	case "a":
		v.all, v.follow = !v.all, true
		v.ver = [2]int64{-1, -1} // read again
		v.Refresh()
	case "enter":
		if len(v.rows) > 0 {
			v.expanded, v.scroll = true, 0
		}
	case "e":
		return nil, v.exportCmd()
	case "up", "k":
		v.move(-1)
	case "down", "j":
		v.move(1)
	case "pgup", "ctrl+u":
		v.move(-10)
	case "pgdown", "ctrl+d":
		v.move(10)
	case "home", "g":
		v.move(-len(v.rows))
	case "end", "G":
		v.move(len(v.rows))
	}
	return nil, nil
}

// ScrollBy is the mouse wheel: it scrolls an expanded message, else moves
// the cursor.
func (v *View) ScrollBy(n int) {
	if v.expanded {
		v.scroll = max(0, v.scroll+n)
		return
	}
	v.move(n)
}

func (v *View) move(n int) {
	v.cursor = max(0, min(v.cursor+n, len(v.rows)-1))
	v.follow = v.cursor == len(v.rows)-1
}

// detailKey scrolls the expanded message; esc or enter goes back.
func (v *View) detailKey(msg tea.KeyMsg) (dialog.Action, tea.Cmd) {
	switch msg.String() {
	case "esc", "enter":
		v.expanded = false
	case "up", "k":
		v.scroll--
	case "down", "j":
		v.scroll++
	case "pgup", "ctrl+u":
		v.scroll -= 10
	case "pgdown", "ctrl+d":
		v.scroll += 10
	case "home", "g":
		v.scroll = 0
	case "end", "G":
		v.scroll = 1 << 30
	}
	v.scroll = max(0, v.scroll)
	return nil, nil
}

// exportCmd writes what the view shows (its filter and direction
// applied) as NDJSON, one record or exchange a line, through the backend
// (atomically, 0600); the path comes back to the view and the status line.
func (v *View) exportCmd() tea.Cmd {
	var data []byte
	for _, r := range v.rows {
		var line []byte
		if r.x != nil {
			line, _ = json.Marshal(r.x)
		} else {
			line, _ = json.Marshal(r.rec)
		}
		data = append(append(data, line...), '\n')
	}
	name := "wire"
	if v.network {
		name = "network"
	}
	if !v.all {
		name += "-" + safeName(v.server)
	}
	save := v.save
	return func() tea.Msg {
		path, err := save(name, data)
		return Exported{View: v, Name: name, Path: path, Err: err}
	}
}

// Exported is an export's outcome, for the root to hand back to its view
// (Noted) and to the status line.
type Exported struct {
	View *View
	Name string // what was exported: wire or network, and the server
	Path string
	Err  error
}

// Noted shows an export's outcome (its path or its failure) under the
// list.
func (v *View) Noted(text string, isErr bool) { v.note, v.noteErr = text, isErr }

// safeName keeps a server's name to letters, digits, '-' and '_' for a
// file name.
func safeName(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c < 128 && (c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
