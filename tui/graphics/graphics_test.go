package graphics

import (
	"bytes"
	"encoding/base64"
	"testing"
)

func TestGraphicsProtocolFromTheEnvironmentOnly(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"TERM": "xterm-kitty"}, Kitty},
		{map[string]string{"KITTY_WINDOW_ID": "1", "TERM": "xterm-256color"}, Kitty},
		{map[string]string{"TERM_PROGRAM": "iTerm.app"}, ITerm2},
		{map[string]string{"LC_TERMINAL": "iTerm2"}, ITerm2},
		{map[string]string{"TERM": "xterm-kitty", "TMUX": "/tmp/tmux-1/default,1,0"}, ""},
		{map[string]string{"TERM": "screen-256color", "TERM_PROGRAM": "iTerm.app"}, ""},
		{map[string]string{"TERM": "xterm-256color"}, ""},
	} {
		if got := Protocol(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: %q, want %q", c.env, got, c.want)
		}
	}
}

// The sequences carry the image base64-encoded (no byte of it raw), kitty
// in 4096-byte chunks; kitty draws PNG only.
func TestImageSequences(t *testing.T) {
	data := bytes.Repeat([]byte{0x1b, ']', 0x07, 0x9b}, 3000) // escape bytes in the image
	kitty := Sequence(Kitty, "image/png", data)
	if n := bytes.Count(kitty, []byte("\x1b_G")); n != (base64.StdEncoding.EncodedLen(len(data))+4095)/4096 {
		t.Errorf("%d kitty chunks", n)
	}
	if !bytes.HasPrefix(kitty, []byte("\x1b_Gf=100,a=T,m=1;")) || !bytes.HasSuffix(kitty, []byte("\x1b\\")) || !bytes.Contains(kitty, []byte("\x1b_Gm=0;")) {
		t.Errorf("kitty framing: %q…", kitty[:40])
	}
	iterm := Sequence(ITerm2, "image/jpeg", data)
	for _, seq := range [][]byte{kitty, iterm} {
		stripped := seq
		for _, frame := range [][]byte{[]byte("\x1b_Gf=100,a=T,m=1;"), []byte("\x1b_Gm=1;"), []byte("\x1b_Gm=0;"), []byte("\x1b\\"), []byte("\x1b]1337;"), []byte("\a")} {
			stripped = bytes.ReplaceAll(stripped, frame, nil)
		}
		if bytes.ContainsAny(stripped, "\x1b\x07\x9b") {
			t.Errorf("an image byte reached the terminal raw")
		}
	}
	if Sequence(Kitty, "image/jpeg", data) != nil || Sequence("", "image/png", data) != nil {
		t.Error("a sequence for what cannot be drawn")
	}
}
