// Package serverinfo is what the servers pane says about a server beyond
// its state: the protocol era it runs and what that means for
// elicitation, logs and sampling (Era); why a server of another client's
// file was not admitted and what to do (NotAdmitted); the lock drift mark
// and detail (DriftMark, DriftDetail); when a lost server is dialled again
// (RetryHint); what it said of itself at initialize (Initialize).
//
// Contract:
//   - Pure functions of what the row holds (the caller passes the values,
//     the width and the styles); no state, no IO, no tea.Msg.
//   - Server text (a protocol version, a problem, a tool's name in a drift)
//     is sanitized (render.ServerLine) before it is drawn.
//
// serverinfo may import host (the initialize details' type), host/era,
// themes, tui/backend (the types that cross the backend seam) and
// tui/render; never package tui (tui/deps_test.go).
package serverinfo
