package graphics

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
	Kitty  = "kitty"
	ITerm2 = "iterm2"
)

// MaxBytes bounds an image sent to the terminal.
const MaxBytes = 8 << 20

// Protocol is the inline-image protocol the terminal described by
// getenv speaks ("" none known).
func Protocol(getenv func(string) string) string {
	if getenv("TMUX") != "" || strings.HasPrefix(getenv("TERM"), "screen") || strings.HasPrefix(getenv("TERM"), "tmux") {
		return ""
	}
	switch {
	case getenv("TERM") == "xterm-kitty" || getenv("KITTY_WINDOW_ID") != "" || getenv("TERM_PROGRAM") == "ghostty":
		return Kitty
	case getenv("TERM_PROGRAM") == "iTerm.app" || getenv("LC_TERMINAL") == "iTerm2" || getenv("TERM_PROGRAM") == "WezTerm":
		return ITerm2
	}
	return ""
}

// ImageSize is an image's pixel size from its header ("" unknown).
func ImageSize(data []byte) string {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return ""
	}
	return fmt.Sprintf("%d×%d px", cfg.Width, cfg.Height)
}

// Sequence is the escape sequence that draws data with protocol, or
// nil when that protocol cannot draw it (kitty: PNG only).
func Sequence(protocol, mimeType string, data []byte) []byte {
	enc := base64.StdEncoding.EncodeToString(data)
	var b bytes.Buffer
	switch protocol {
	case Kitty:
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
	case ITerm2:
		fmt.Fprintf(&b, "\x1b]1337;File=inline=1;size=%d;preserveAspectRatio=1:%s\a", len(data), enc)
	default:
		return nil
	}
	return b.Bytes()
}

// Exec (a tea.ExecCommand) draws one image outside the workbench, then waits for enter.
type Exec struct {
	Title string // said above the image
	Seq   []byte // Sequence's escape sequence
	in    io.Reader
	out   io.Writer
}

// SetStdin, SetStdout and SetStderr are tea.ExecCommand's.
func (p *Exec) SetStdin(r io.Reader)  { p.in = r }
func (p *Exec) SetStdout(w io.Writer) { p.out = w }
func (p *Exec) SetStderr(io.Writer)   {}

// Run writes the title and the image, then waits for enter.
func (p *Exec) Run() error {
	if _, err := fmt.Fprintf(p.out, "\r\n%s\r\n\r\n", p.Title); err != nil {
		return err
	}
	if _, err := p.out.Write(p.Seq); err != nil {
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
