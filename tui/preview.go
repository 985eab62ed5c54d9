package tui

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig reads their headers (dimensions)
	_ "image/jpeg"
	_ "image/png"
	"io"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/render"
)

// Image previews. A terminal that speaks a graphics protocol is known from
// the environment only (TERM, TERM_PROGRAM, LC_TERMINAL, KITTY_WINDOW_ID):
// nothing is written to ask the terminal, so nothing it answers is read as
// keys. Inside tmux or screen no protocol is assumed (they need passthrough).
// The preview leaves the alternate screen (tea.Exec), draws the image, and
// comes back on enter; the bytes go out base64-encoded, so an image cannot
// carry an escape sequence. Elsewhere an image is a described placeholder:
// type, pixel size when its header says, bytes.

// Graphics protocols.
const (
	GraphicsKitty  = "kitty"
	GraphicsITerm2 = "iterm2"
)

// maxPreviewBytes bounds an image sent to the terminal.
const maxPreviewBytes = 8 << 20

// GraphicsProtocol is the inline-image protocol the terminal described by
// getenv speaks ("" none known).
func GraphicsProtocol(getenv func(string) string) string {
	if getenv("TMUX") != "" || strings.HasPrefix(getenv("TERM"), "screen") || strings.HasPrefix(getenv("TERM"), "tmux") {
		return ""
	}
	switch {
	case getenv("TERM") == "xterm-kitty" || getenv("KITTY_WINDOW_ID") != "" || getenv("TERM_PROGRAM") == "ghostty":
		return GraphicsKitty
	case getenv("TERM_PROGRAM") == "iTerm.app" || getenv("LC_TERMINAL") == "iTerm2" || getenv("TERM_PROGRAM") == "WezTerm":
		return GraphicsITerm2
	}
	return ""
}

// imageSize is an image's pixel size from its header ("" unknown).
func imageSize(data []byte) string {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return ""
	}
	return fmt.Sprintf("%d×%d px", cfg.Width, cfg.Height)
}

// imageSequence is the escape sequence that draws data with protocol, or
// nil when that protocol cannot draw it (kitty: PNG only).
func imageSequence(protocol, mimeType string, data []byte) []byte {
	enc := base64.StdEncoding.EncodeToString(data)
	var b bytes.Buffer
	switch protocol {
	case GraphicsKitty:
		if !strings.EqualFold(mimeType, "image/png") {
			return nil
		}
		for i := 0; i < len(enc); i += 4096 {
			chunk := enc[i:min(len(enc), i+4096)]
			more := 0
			if i+4096 < len(enc) {
				more = 1
			}
			if i == 0 {
				fmt.Fprintf(&b, "\x1b_Gf=100,a=T,m=%d;%s\x1b\\", more, chunk)
			} else {
				fmt.Fprintf(&b, "\x1b_Gm=%d;%s\x1b\\", more, chunk)
			}
		}
	case GraphicsITerm2:
		fmt.Fprintf(&b, "\x1b]1337;File=inline=1;size=%d;preserveAspectRatio=1:%s\a", len(data), enc)
	default:
		return nil
	}
	return b.Bytes()
}

// previewExec draws one image outside the workbench, then waits for enter.
type previewExec struct {
	title string
	seq   []byte
	in    io.Reader
	out   io.Writer
}

func (p *previewExec) SetStdin(r io.Reader)  { p.in = r }
func (p *previewExec) SetStdout(w io.Writer) { p.out = w }
func (p *previewExec) SetStderr(io.Writer)   {}

func (p *previewExec) Run() error {
	if _, err := fmt.Fprintf(p.out, "\r\n%s\r\n\r\n", p.title); err != nil {
		return err
	}
	if _, err := p.out.Write(p.seq); err != nil {
		return err
	}
	if _, err := io.WriteString(p.out, "\r\n\r\npress enter to go back to the workbench"); err != nil {
		return err
	}
	if p.in != nil {
		_, _ = bufio.NewReader(p.in).ReadString('\n')
	}
	return nil
}

type previewedMsg struct{ err error }

func (previewedMsg) clientMsg() {}

// previewShown previews the first image of the job on show.
func (m *Model) previewShown() tea.Cmd {
	j := m.call.shownJob()
	if j == nil {
		return nil
	}
	var img *engine.Content
	for _, c := range j.binaryParts() {
		if strings.HasPrefix(strings.ToLower(c.MIMEType), "image/") {
			img = &c
			break
		}
	}
	if img == nil {
		m.status.set("no image here to preview", false)
		return nil
	}
	desc := render.ServerLine(img.MIMEType) + " · " + render.HumanBytes(len(img.Data))
	if s := imageSize(img.Data); s != "" {
		desc += " · " + s
	}
	proto := m.info.Graphics
	var seq []byte
	if len(img.Data) <= maxPreviewBytes {
		seq = imageSequence(proto, img.MIMEType, img.Data)
	}
	if seq == nil {
		why := "this terminal speaks no inline-image protocol relavium knows (kitty, iTerm2)"
		switch {
		case len(img.Data) > maxPreviewBytes:
			why = "it is over 8 MiB"
		case proto == GraphicsKitty:
			why = "the kitty protocol draws PNG only"
		}
		m.status.set("image "+desc+" not previewed: "+why+"; s saves it to a file", false)
		return nil
	}
	return tea.Exec(&previewExec{title: "image " + desc + " (" + proto + ")", seq: seq}, func(err error) tea.Msg { return previewedMsg{err: err} })
}

func (m *Model) onPreviewed(msg previewedMsg) {
	if msg.err != nil {
		m.status.set("preview failed: "+msg.err.Error(), true)
	}
}
