// Package wireview is the workbench's protocol and network views (W): a
// dialog over the whole screen reading the session's wire hub
// (host/wire). The protocol view lists every JSON-RPC message of a server,
// both directions, a response grouped under its request with its
// round-trip time; the network view lists each HTTP exchange with its
// status and timings. Both filter by method, expand a row, and export
// what they show.
//
// Contract:
//   - View is a dialog.Dialog: it changes only its own state. New reads the
//     hub once; Refresh reads it again when it moved (memory, no IO), and
//     the root calls it on a tick (RefreshEvery) while the view is open.
//   - It draws only what the hub holds, which is redacted already
//     (credentials never reach the hub), and sanitizes server text
//     (tui/render) before drawing it.
//   - An export (e) is the one piece of IO: a tea.Cmd through
//     Source.SaveWire, answered by an Exported message the root hands back
//     (View.Noted) and shows on its status line.
//
// wireview may import host/wire, themes, tui/dialog, tui/render and the
// charmbracelet widgets; never package tui (tui/deps_test.go).
package wireview
