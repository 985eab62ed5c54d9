package clipboard

import (
	"context"
	"encoding/base64"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
)

// Max bounds what is copied (terminals refuse longer OSC 52 payloads);
// what is cut is said.
const Max = 64 << 10

// Life is how long the OSC 52 sequence stays in the frames: long enough
// for the renderer to have written one.
const Life = 300 * time.Millisecond

// Clip is the copy riding on the frames: the OSC 52 sequence ("" none)
// and the number of the copy it belongs to.
type Clip struct {
	OSC52 string
	Seq   int
}

// Put makes text the copy on the frames: sanitized, bounded. It returns
// the text sent and whether it was cut.
func (c *Clip) Put(text string) (sent string, cut bool) {
	text = sanitize.Text(text)
	if len(text) > Max {
		text, cut = text[:Max], true
		for !utf8.ValidString(text) {
			text = text[:len(text)-1]
		}
	}
	c.OSC52 = "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
	c.Seq++
	return text, cut
}

// SentMsg ends the OSC 52 sequence's stay in the frames.
type SentMsg struct{ Seq int }

// Expire takes the sequence off the frames if msg is its copy's.
func (c *Clip) Expire(msg SentMsg) {
	if msg.Seq == c.Seq {
		c.OSC52 = ""
	}
}

// Wait answers SentMsg for copy seq after Life (nothing once ctx ends).
func Wait(ctx context.Context, seq int) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(Life)
		defer t.Stop()
		select {
		case <-t.C:
			return SentMsg{Seq: seq}
		case <-ctx.Done():
			return nil
		}
	}
}

// Shown is the dialog that shows what was copied (what: its name) for a
// manual copy: text as shown draws it at a width, or (nil, or the text
// cut) the text wrapped.
func Shown(what, text string, cut bool, shown func(iw int) []string) dialog.Dialog {
	return &dialog.Text{Title: "Copied · " + what, Max: 110, Lines: func(st *themes.Styles, iw int) []string {
		out := render.Wrap(st.Muted.Render("Sent to the terminal's clipboard with OSC 52. A terminal that does not allow it copies nothing: select the text below instead (with the mouse captured, most terminals select with shift+drag)."), iw)
		out = append(out, "")
		if shown != nil && !cut {
			return append(out, shown(iw)...)
		}
		for _, l := range render.SplitLines(text) {
			out = append(out, render.Wrap(l, iw)...)
		}
		return out
	}}
}
