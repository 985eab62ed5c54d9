// Package eventstrip is the events strip: the session's latest events, one
// line each, in the room the call pane has under what it shows (servers
// changing state, calls going out and coming back, logs, skipped tools,
// gates).
//
// Contract:
//   - Strip holds the lines, bounded (MaxLines; the older half goes when it
//     is full); Add sanitizes the text (render.ServerLine) and drops the
//     same news twice in a row, logs excepted. Lines are built as events
//     arrive (the root's Update hands each to Event, which says what it
//     adds); Lines only draws the newest that fit, under a titled rule.
//   - A log line's role is "log:" and its level; it is drawn only when the
//     caller's floor shows that level (the v key's), as everywhere.
//   - No IO, no tea.Msg; the clock is the caller's (each line carries its
//     time).
//
// eventstrip may import engine and host (the events' types), themes and
// tui/render; never package tui nor another tui subpackage
// (tui/deps_test.go).
package eventstrip
