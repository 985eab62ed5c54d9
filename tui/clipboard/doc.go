// Package clipboard is the workbench's copy (y, Y): the text goes to the
// terminal's clipboard as an OSC 52 sequence that rides on the frames for
// a moment (drawn once with them, so no write races the renderer), and a
// dialog shows the copied text, plain, for the terminal's own selection
// (whether OSC 52 lands depends on the terminal).
//
// Contract:
//   - Clip is the copy riding on the frames: Put sanitizes the text
//     (engine/sanitize: no control sequence of a server's reaches the
//     clipboard, and so a shell it is pasted into), bounds it (Max, cut
//     on a rune boundary, the cut said) and numbers the copy; Expire ends
//     its stay when the SentMsg of the same copy comes back (a later copy
//     outlives an earlier one's timer).
//   - Wait is the one tea.Cmd: a timer of Life, honouring the program's
//     context; it touches no state (the root hands the SentMsg to Expire).
//   - Shown is the copy's dialog.
//
// clipboard may import engine/sanitize, themes, tui/dialog and
// tui/render; never package tui (tui/deps_test.go).
package clipboard
