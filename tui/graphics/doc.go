// Package graphics is the workbench's inline images: Protocol says which
// graphics protocol the terminal speaks (kitty, iTerm2; from the
// environment only, never by asking the terminal), ImageSize reads an
// image's pixel size from its header, Sequence is the escape sequence
// that draws an image (the bytes base64-encoded, so an image cannot carry
// an escape sequence of its own), and Exec draws one off the alternate
// screen (through tea.Exec) until enter.
//
// Contract: no state; Exec writes only to the terminal it is handed. What
// is previewed and when is the workbench's (tui's results.go).
//
// graphics imports the standard library only; never package tui nor any
// other tui subpackage (tui/deps_test.go).
package graphics
