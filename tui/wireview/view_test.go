package wireview

import (
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/host/wire"
	"github.com/relavium/relavium/internal/golden"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// hubSource is a Source over a hub; exports land in dir.
type hubSource struct {
	hub *wire.Hub
	dir string
}

func (s hubSource) Wire() *wire.Hub { return s.hub }

func (s hubSource) SaveWire(name string, data []byte) (string, error) {
	if s.dir == "" {
		return "", errors.New("no directory")
	}
	p := filepath.Join(s.dir, name+".ndjson")
	return p, os.WriteFile(p, data, 0o600)
}

// wireFixture is a hub holding a short session of the server demo: an
// initialize pair, the initialized notification, a tools/call pair with a
// log notification between, an error, and one message of another server;
// the clock moves 7 ms a reading.
func wireFixture(t *testing.T) *wire.Hub {
	t.Helper()
	clock := fixedNow
	hub := wire.NewHub("", func() time.Time { clock = clock.Add(7 * time.Millisecond); return clock })
	demo := hub.Server("demo", nil)
	other := hub.Server("other", nil)
	for _, m := range []struct{ dir, raw string }{
		{wire.Send, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"relavium","version":"t"}}}`},
		{wire.Recv, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"demo","version":"1"}}}`},
		{wire.Send, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`},
		{wire.Send, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi","api_key":"s3cr3t"}}}`},
		{wire.Recv, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"echoing \u001b[31mred"}}`},
		{wire.Recv, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}`},
		{wire.Send, `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"demo://none"}}`},
		{wire.Recv, `{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"not found"}}`},
	} {
		demo.Observe(m.dir, []byte(m.raw))
	}
	other.Observe(wire.Send, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	return hub
}

func wireKeys(v *View, keys ...string) {
	for _, k := range keys {
		act, cmd := v.Handle(keyMsg(k))
		if act != nil {
			panic("closed")
		}
		_ = cmd
	}
}

// The protocol view groups each response under its request with its
// round-trip time, filters by method and direction, expands a message
// as pretty sanitized JSON with credentials redacted, and exports what it
// shows.
func TestWireViewProtocol(t *testing.T) {
	st := testStyles(termenv.Ascii, themes.Mono)
	hub := wireFixture(t)
	dir := t.TempDir()
	v := New(hubSource{hub: hub, dir: dir}, "demo", true, false)
	frame := v.View(st, 120, 30)
	checkFrame(t, frame, 120, 30)
	golden.Check(t, filepath.Join("..", "..", "testdata", "tui", "wireview_protocol_120x30.golden"), []byte(frame))
	lines := strings.Split(frame, "\n")
	at := func(s string) int {
		for i, l := range lines {
			if strings.Contains(l, s) {
				return i
			}
		}
		t.Fatalf("%q not in the frame:\n%s", s, frame)
		return -1
	}
	// grouped: tools/call's response right under its request, past the log
	// notification that came between them
	if req, res := at("req   tools/call"), at("└res  tools/call"); res != req+1 || !strings.Contains(lines[res], "14.0ms") {
		t.Fatalf("tools/call not paired with its rtt:\n%s", frame)
	}
	if strings.Contains(frame, "ping") {
		t.Fatal("another server's message in this server's view")
	}

	wireKeys(v, "/", "t", "o", "o", "l", "enter")
	if len(v.rows) != 2 || v.rows[0].rec.Method != "tools/call" {
		t.Fatalf("filter: %d rows", len(v.rows))
	}
	wireKeys(v, "d")
	if len(v.rows) != 1 || v.rows[0].rec.Dir != wire.Send {
		t.Fatalf("direction: %+v", v.rows)
	}
	wireKeys(v, "d", "d", "home", "enter") // recv only, then both again
	detail := v.View(st, 120, 40)
	for _, want := range []string{`"name": "echo"`, `"api_key": "[redacted]"`, "relavium → server"} {
		if !strings.Contains(detail, want) {
			t.Fatalf("%q not in the expanded message:\n%s", want, detail)
		}
	}
	if strings.Contains(detail, "s3cr3t") {
		t.Fatal("a credential reached the view")
	}
	wireKeys(v, "esc", "esc") // back to the list, then the filter cleared
	if len(v.rows) != 8 {
		t.Fatalf("unfiltered: %d rows", len(v.rows))
	}
	wireKeys(v, "end", "enter")
	if d := v.View(st, 120, 40); strings.Contains(d, "\x1b[31m") || !strings.Contains(d, "not found") {
		t.Fatalf("the error's detail:\n%s", d)
	}
	wireKeys(v, "esc", "a")
	if len(v.rows) != 9 {
		t.Fatalf("every server: %d rows", len(v.rows))
	}

	_, cmd := v.Handle(keyMsg("e"))
	ex, ok := cmd().(Exported)
	if !ok || ex.View != v || ex.Err != nil || ex.Name != "wire" || ex.Path != filepath.Join(dir, "wire.ndjson") {
		t.Fatalf("export answered %#v", ex)
	}
	v.Noted("exported to "+ex.Path, false)
	if !strings.Contains(v.View(st, 120, 30), "exported to ") {
		t.Fatal("the export's note is not under the list")
	}
	data, err := os.ReadFile(filepath.Join(dir, "wire.ndjson"))
	if err != nil || strings.Count(string(data), "\n") != 9 || strings.Contains(string(data), "s3cr3t") {
		t.Fatalf("export: %v\n%s", err, data)
	}
	if act, _ := v.Handle(keyMsg("esc")); act == nil {
		t.Fatal("esc did not close the view")
	}
}

// The network view lists a server's HTTP exchanges with status and
// timings; a stdio server's says it has none.
func TestWireViewNetwork(t *testing.T) {
	st := testStyles(termenv.Ascii, themes.Mono)
	hub := wire.NewHub("", nil)
	rec := hub.Server("web", nil)
	rt := rec.Exchanges(roundTrip(func(*http.Request) (*http.Response, error) {
		h := http.Header{}
		h.Set("Mcp-Session-Id", "abcdef0123456789")
		return &http.Response{StatusCode: 202, Header: h, Body: http.NoBody}, nil
	}))
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:9/mcp", strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	req.GetBody = func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)), nil
	}
	req.Header.Set("Authorization", "Bearer tok-123")
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	v := New(hubSource{hub: hub}, "web", false, true)
	frame := v.View(st, 120, 20)
	checkFrame(t, frame, 120, 20)
	if !strings.Contains(frame, "notifications/initialized") || !strings.Contains(frame, "202") || !strings.Contains(frame, "abcdef01…") {
		t.Fatalf("network view:\n%s", frame)
	}
	wireKeys(v, "enter")
	if d := v.View(st, 120, 30); !strings.Contains(d, "Authorization (values never shown)") || strings.Contains(d, "tok-123") {
		t.Fatalf("exchange detail:\n%s", d)
	}
	stdio := New(hubSource{hub: hub}, "demo", true, true)
	if f := stdio.View(st, 100, 12); !strings.Contains(f, "a stdio server has no HTTP exchanges") {
		t.Fatalf("stdio network view:\n%s", f)
	}
	wireKeys(stdio, "n")
	if f := stdio.View(st, 100, 12); !strings.Contains(f, "PROTOCOL") {
		t.Fatalf("n did not switch:\n%s", f)
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func testStyles(profile termenv.Profile, theme string) *themes.Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(profile)
	r.SetHasDarkBackground(true)
	p, _ := themes.ByName(theme)
	return themes.NewStyles(r, p)
}

func keyMsg(k string) tea.KeyMsg {
	names := map[string]tea.KeyType{"enter": tea.KeyEnter, "esc": tea.KeyEsc, "home": tea.KeyHome, "end": tea.KeyEnd}
	if t, ok := names[k]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// checkFrame fails unless frame is exactly w×h cells.
func checkFrame(t testing.TB, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) != h {
		t.Fatalf("frame has %d lines, want %d:\n%s", len(lines), h, frame)
	}
	for i, l := range lines {
		if got := render.Width(l); got != w {
			t.Fatalf("frame line %d is %d cells wide, want %d: %q", i, got, w, l)
		}
	}
}

var fixedNow = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

// The wheel moves the list's cursor (leaving follow mode), and scrolls an
// expanded message instead.
func TestWireViewWheel(t *testing.T) {
	v := New(hubSource{hub: wireFixture(t)}, "demo", true, false)
	if v.cursor != 7 || !v.follow {
		t.Fatalf("opens on the newest row: %d %v", v.cursor, v.follow)
	}
	v.ScrollBy(-3)
	if v.cursor != 4 || v.follow {
		t.Fatalf("wheel up: %d %v", v.cursor, v.follow)
	}
	wireKeys(v, "enter")
	v.ScrollBy(2)
	if v.scroll != 2 || v.cursor != 4 {
		t.Fatalf("wheel in a message: scroll %d cursor %d", v.scroll, v.cursor)
	}
}
