package wireview

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/relavium/relavium/host/wire"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
)

// maxDetailLines bounds an expanded message's pretty JSON (a 4 MiB page
// would be hundreds of thousands of lines; the export holds it whole).
const maxDetailLines = 5000

// View draws the view over the whole screen: a title, the list (or the
// expanded row), the keys.
func (v *View) View(st *themes.Styles, w, h int) string {
	iw := dialog.InnerWidth(w)
	room := max(1, h-2) // the border
	head := []string{st.DialogTitle.Render(render.Cut(v.title(), iw))}
	var body []string
	if v.expanded && v.cursor < len(v.rows) {
		head = append(head, st.Muted.Render(render.Fit("esc/enter back · ↑↓ scroll", iw)))
		body = v.detailLines(st, iw)
	} else {
		head = append(head, v.subtitle(st, iw), st.Muted.Render(render.Fit(v.columns(iw), iw)))
		body = v.listLines(st, iw, max(1, room-len(head)-2))
	}
	foot := []string{v.noteLine(st, iw), st.Muted.Render(render.Cut(v.keyLine(), iw))}
	bodyRoom := max(0, room-len(head)-len(foot))
	if v.expanded {
		v.scroll = max(0, min(v.scroll, len(body)-bodyRoom))
		body = body[v.scroll:]
	}
	if len(body) > bodyRoom {
		body = body[:bodyRoom]
	}
	for len(body) < bodyRoom {
		body = append(body, "")
	}
	lines := make([]string, 0, room)
	for _, l := range append(append(head, body...), foot...) {
		lines = append(lines, render.Fit(l, iw))
	}
	return st.Dialog.Render(strings.Join(lines, "\n"))
}

func (v *View) title() string {
	who := "server " + render.ServerLine(v.server)
	if v.all {
		who = "every server"
	}
	if v.network {
		return fmt.Sprintf("NETWORK · %s · HTTP exchanges: %d (the last 512 kept)", who, len(v.xs))
	}
	return fmt.Sprintf("PROTOCOL · %s · messages: %d (the last 1024 kept)", who, len(v.recs))
}

// subtitle says what is filtered, or the filter being typed.
func (v *View) subtitle(st *themes.Styles, iw int) string {
	if v.filtering {
		return render.Fit(v.filter.View(), iw)
	}
	var parts []string
	if !v.network {
		switch v.dir {
		case wire.Send:
			parts = append(parts, "→ sent to the server only")
		case wire.Recv:
			parts = append(parts, "← received from the server only")
		default:
			parts = append(parts, "→ sent · ← received")
		}
	}
	if q := v.filter.Value(); q != "" {
		parts = append(parts, "method contains "+strconv.Quote(q))
	}
	parts = append(parts, fmt.Sprintf("%d shown", len(v.rows)))
	return st.Muted.Render(render.Fit(strings.Join(parts, " · "), iw))
}

// Column widths of the lists.
const (
	wcTime   = 12
	wcServer = 14
	wcID     = 8
	wcSize   = 9
	wcDur    = 9
	// wcNetFixed is the network list's fixed columns: method, status,
	// four timings and the total, the session id.
	wcNetFixed = 7 + 1 + 4 + 4*(wcDur+1) + (wcDur - 1) + 2 + 9
)

func (v *View) columns(iw int) string {
	lead := render.Fit("time", wcTime) + " "
	if v.all {
		lead += render.Fit("server", wcServer) + " "
	}
	if v.network {
		flex := max(4, iw-render.Width(lead)-wcNetFixed)
		return lead + render.Fit("http", 7) + render.Fit("rpc", flex) + " " + render.Fit("st", 4) +
			padLeft("dns", wcDur) + " " + padLeft("connect", wcDur) + " " + padLeft("tls", wcDur) + " " + padLeft("1st byte", wcDur) + " " + padLeft("total", wcDur-1) + "  session"
	}
	flex := max(4, iw-render.Width(lead)-2-6-wcID-wcSize-wcDur-4)
	return lead + "  " + render.Fit("kind", 6) + render.Fit("method", flex) + " " + render.Fit("id", wcID) + " " + padLeft("size", wcSize) + " " + padLeft("rtt", wcDur)
}

// listLines are the rows in view, the cursor's highlighted; the offset
// follows the cursor.
func (v *View) listLines(st *themes.Styles, iw, rows int) []string {
	if len(v.rows) == 0 {
		return []string{st.Muted.Render(v.emptyText())}
	}
	if v.cursor < v.offset {
		v.offset = v.cursor
	}
	if v.cursor >= v.offset+rows {
		v.offset = v.cursor - rows + 1
	}
	v.offset = max(0, min(v.offset, len(v.rows)-rows))
	var out []string
	for i := v.offset; i < len(v.rows) && i < v.offset+rows; i++ {
		line := render.Fit(v.rowText(v.rows[i], iw), iw)
		if i == v.cursor {
			line = st.Selected.Render(line)
		}
		out = append(out, line)
	}
	return out
}

func (v *View) emptyText() string {
	switch {
	case v.network && v.stdio && !v.all:
		return "a stdio server has no HTTP exchanges: its wire is the child's stdin and stdout (n: the protocol view)"
	case v.filter.Value() != "" || v.dir != "":
		return "nothing matches (esc clears the filter, d the direction)"
	case v.network:
		return "no HTTP exchange yet"
	}
	return "no message yet"
}

func (v *View) rowText(r row, iw int) string {
	if r.x != nil {
		return v.exchangeRow(r.x, iw)
	}
	rec := r.rec
	lead := rec.Time.UTC().Format("15:04:05.000") + " "
	if v.all {
		lead += render.Fit(render.ServerLine(rec.Server), wcServer) + " "
	}
	arrow := "→ "
	if rec.Dir == wire.Recv {
		arrow = "← "
	}
	kind := map[string]string{wire.KindRequest: "req", wire.KindNotification: "note", wire.KindResponse: "res",
		wire.KindError: "err", wire.KindInvalid: "bad"}[rec.Kind]
	if r.answered {
		kind = "└" + kind
	}
	method := render.ServerLine(rec.Method)
	if rec.Truncated {
		method += " (by size)"
	}
	size, rtt := render.HumanBytes(rec.Size), ""
	if rec.RTTMicros > 0 {
		rtt = micros(rec.RTTMicros)
	}
	flex := max(4, iw-render.Width(lead)-2-6-wcID-wcSize-wcDur-4)
	return lead + arrow + render.Fit(kind, 6) + render.Fit(method, flex) + " " + render.Fit(render.ServerLine(string(rec.ID)), wcID) + " " +
		padLeft(size, wcSize) + " " + padLeft(rtt, wcDur)
}

func (v *View) exchangeRow(x *wire.Exchange, iw int) string {
	lead := x.Time.UTC().Format("15:04:05.000") + " "
	if v.all {
		lead += render.Fit(render.ServerLine(x.Server), wcServer) + " "
	}
	status := strconv.Itoa(x.Status)
	if x.Err != "" {
		status = "ERR"
	}
	flex := max(4, iw-render.Width(lead)-wcNetFixed)
	return lead + render.Fit(render.ServerLine(x.Method), 7) + render.Fit(render.ServerLine(x.RPC), flex) + " " + render.Fit(status, 4) +
		padLeft(micros(x.DNSMicros), wcDur) + " " + padLeft(micros(x.ConnectMicros), wcDur) + " " + padLeft(micros(x.TLSMicros), wcDur) + " " +
		padLeft(micros(x.FirstByteMicros), wcDur) + " " + padLeft(micros(x.TotalMicros), wcDur-1) + "  " + render.ServerLine(x.SessionID)
}

// detailLines are the expanded row: what the list shows, in full, then a
// message's pretty JSON (sanitized and coloured by tui/render).
func (v *View) detailLines(st *themes.Styles, iw int) []string {
	r := v.rows[v.cursor]
	key := fmt.Sprintf("%v/%d/%d", r.x != nil, v.seqOf(r), iw)
	if key == v.detailFor {
		return v.detail
	}
	var out []string
	add := func(label, value string) {
		if value != "" {
			out = append(out, dialog.Labelled(st, label, render.ServerLine(value), iw)...)
		}
	}
	if x := r.x; x != nil {
		add("time", x.Time.UTC().Format("2006-01-02 15:04:05.000 UTC"))
		add("server", x.Server)
		add("request", x.Method+" "+x.URL)
		add("rpc", x.RPC)
		if x.Status > 0 {
			add("status", strconv.Itoa(x.Status))
		}
		add("error", x.Err)
		add("dns", micros(x.DNSMicros))
		add("connect", micros(x.ConnectMicros))
		add("tls", micros(x.TLSMicros))
		add("1st byte", micros(x.FirstByteMicros))
		add("total", micros(x.TotalMicros))
		if x.Reused {
			add("conn", "reused (no DNS, connect or TLS)")
		}
		add("type", x.ContentType)
		add("protocol", x.ProtocolVersion)
		add("session", x.SessionID)
		if len(x.Headers) > 0 {
			add("headers", strings.Join(x.Headers, ", ")+" (values never shown)")
		}
	} else {
		rec := r.rec
		dir := "relavium → server"
		if rec.Dir == wire.Recv {
			dir = "server → relavium"
		}
		add("time", rec.Time.UTC().Format("2006-01-02 15:04:05.000 UTC"))
		add("server", rec.Server)
		add("dir", dir)
		add("kind", rec.Kind)
		add("method", rec.Method)
		add("id", string(rec.ID))
		add("size", fmt.Sprintf("%s (%d bytes)", render.HumanBytes(rec.Size), rec.Size))
		if rec.RTTMicros > 0 {
			add("rtt", micros(rec.RTTMicros))
		}
		out = append(out, "")
		switch {
		case rec.Truncated || rec.Message == nil:
			out = append(out, st.Muted.Render("recorded by size alone: over 4 MiB, or not one JSON-RPC message"))
		default:
			js := render.JSONBlock(st, rec.Message, iw)
			if len(js) > maxDetailLines {
				js = append(js[:maxDetailLines], st.Muted.Render(fmt.Sprintf("… %d more lines (e exports the whole message)", len(js)-maxDetailLines)))
			}
			out = append(out, js...)
		}
	}
	v.detailFor, v.detail = key, out
	return out
}

func (v *View) seqOf(r row) int64 {
	if r.x != nil {
		return r.x.Seq
	}
	return r.rec.Seq
}

func (v *View) noteLine(st *themes.Styles, iw int) string {
	switch {
	case v.note == "":
		return ""
	case v.noteErr:
		return st.Error.Render(render.Cut(v.note, iw))
	}
	return st.OK.Render(render.Cut(v.note, iw))
}

func (v *View) keyLine() string {
	if v.filtering {
		return "type a method · enter keep · esc clear"
	}
	other := "n network"
	if v.network {
		other = "n protocol"
	}
	all := "a every server"
	if v.all {
		all = "a this server"
	}
	line := "enter expand · / filter · " + other + " · " + all + " · e export · esc close"
	if !v.network {
		line = "enter expand · / filter · d direction · " + other + " · " + all + " · e export · esc close"
	}
	return line
}

// micros is a duration in microseconds as a column shows it ("" for 0).
func micros(us int64) string {
	switch {
	case us <= 0:
		return ""
	case us < 1000:
		return fmt.Sprintf("%dµs", us)
	case us < 1_000_000:
		return fmt.Sprintf("%.1fms", float64(us)/1000)
	}
	return fmt.Sprintf("%.2fs", float64(us)/1e6)
}

func padLeft(s string, w int) string {
	if n := w - render.Width(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return render.Cut(s, w)
}
