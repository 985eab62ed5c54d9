package tui

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/internal/golden"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// harness drives a Model the way the program does — messages in, Cmds run
// in goroutines, their messages fed back — without a terminal. Tick
// messages are dropped so frames are deterministic (the clock is fixed).
type harness struct {
	t      testing.TB
	m      *Model
	f      *fakeBackend
	ctx    context.Context
	cancel context.CancelFunc
	msgs   chan tea.Msg
	wg     sync.WaitGroup
	quit   bool
	// batches counts the event batches the model received.
	batches int
	// keyAt is the key clock: each reading is a second after the last, so
	// every key the harness sends is deliberate (burst tests set burst).
	keyAt time.Time
	burst bool
}

// keyClock is the model's KeyClock: a second per reading, or no time at
// all while burst is set (keys typed with no pause).
func (h *harness) keyClock() time.Time {
	if h.keyAt.IsZero() {
		h.keyAt = fixedNow
	}
	if !h.burst {
		h.keyAt = h.keyAt.Add(time.Second)
	}
	return h.keyAt
}

func testStyles(profile termenv.Profile, theme string) *themes.Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(profile)
	r.SetHasDarkBackground(true)
	p, _ := themes.ByName(theme)
	return themes.NewStyles(r, p)
}

func newHarness(t testing.TB, f *fakeBackend, w, h int) *harness {
	return newHarnessStyled(t, f, w, h, testStyles(termenv.Ascii, themes.Mono))
}

func newHarnessStyled(t testing.TB, f *fakeBackend, w, h int, st *themes.Styles) *harness {
	ctx, cancel := context.WithCancel(context.Background())
	hs := &harness{t: t, f: f, ctx: ctx, cancel: cancel, msgs: make(chan tea.Msg, 1024)}
	hs.m = New(ctx, f, Options{Styles: st, Now: func() time.Time { return fixedNow }, KeyClock: hs.keyClock})
	t.Cleanup(hs.close)
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.exec(hs.m.Init())
	return hs
}

func (h *harness) close() {
	h.m.Shutdown()
	h.cancel()
	_ = h.f.Close()
	h.wg.Wait()
}

func (h *harness) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.deliver(cmd())
	}()
}

func (h *harness) deliver(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil, tickMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			h.exec(c)
		}
	case tea.QuitMsg:
		select {
		case h.msgs <- msg:
		case <-h.ctx.Done():
		}
	default:
		select {
		case h.msgs <- msg:
		case <-h.ctx.Done():
		}
	}
}

// send applies one message now.
func (h *harness) send(msg tea.Msg) {
	switch msg.(type) {
	case tea.QuitMsg:
		h.quit = true
		return
	case eventsMsg:
		h.batches++
	}
	_, cmd := h.m.Update(msg)
	h.exec(cmd)
}

// key sends key presses: "enter", "ctrl+s", "a", or runes "hello".
func (h *harness) key(keys ...string) {
	for _, k := range keys {
		h.send(keyMsg(k))
		h.pump(20 * time.Millisecond)
	}
}

func (h *harness) typeText(s string) {
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)})
	h.pump(20 * time.Millisecond)
}

func keyMsg(k string) tea.KeyMsg {
	names := map[string]tea.KeyType{"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "ctrl+c": tea.KeyCtrlC,
		"ctrl+s": tea.KeyCtrlS, "ctrl+t": tea.KeyCtrlT, "ctrl+a": tea.KeyCtrlA, "ctrl+p": tea.KeyCtrlP, "ctrl+o": tea.KeyCtrlO, "ctrl+d": tea.KeyCtrlD, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"backspace": tea.KeyBackspace, " ": tea.KeySpace, "home": tea.KeyHome, "end": tea.KeyEnd}
	if t, ok := names[k]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// pump feeds messages until none arrives for quiet.
func (h *harness) pump(quiet time.Duration) {
	for {
		select {
		case msg := <-h.msgs:
			h.send(msg)
		case <-time.After(quiet):
			return
		}
	}
}

// until feeds messages until cond holds (or fails the test after 5 s).
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(5 * time.Second)
	for !cond() {
		select {
		case msg := <-h.msgs:
			h.send(msg)
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; frame:\n%s", what, h.m.View())
		}
	}
}

func (h *harness) view() string { return h.m.View() }

// golden compares the frame with testdata/tui/<name>.golden (golden.Check:
// RELAVIUM_UPDATE_GOLDEN=1 rewrites it) and checks the frame's shape:
// exactly h lines of exactly w cells.
func (h *harness) golden(name string) {
	h.t.Helper()
	h.pump(30 * time.Millisecond) // events in flight reach the strip first
	frame := h.view()
	checkFrame(h.t, frame, h.m.width, h.m.height)
	golden.Check(h.t, filepath.Join("..", "testdata", "tui", name+".golden"), []byte(frame))
}

// checkFrame asserts a frame is exactly h lines of exactly w cells.
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

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func teaMouse(x, y int, what string) tea.MouseMsg {
	m := tea.MouseMsg{X: x, Y: y, Action: tea.MouseActionPress}
	switch what {
	case "wheelup":
		m.Button = tea.MouseButtonWheelUp
	case "wheeldown":
		m.Button = tea.MouseButtonWheelDown
	default:
		m.Button = tea.MouseButtonLeft
	}
	return m
}

// column is the text of the frame's cells x to x+w-1, line after line,
// joined by single spaces: what a pane says, however it wrapped.
func (h *harness) column(x, w int) string {
	var parts []string
	for _, l := range strings.Split(render.StripANSI(h.view()), "\n") {
		r := []rune(l)
		if x < len(r) {
			parts = append(parts, string(r[x:min(len(r), x+w)]))
		}
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}
