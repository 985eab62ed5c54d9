// Package resultsearch is the search inside the result on show (/ in the
// call pane): / types a query (a fresh one each time), enter keeps it, n
// and N go to the next and previous line that holds it, esc ends it.
// Matches are highlighted: the line is drawn plain with each match
// reversed, so the highlight reads without colour.
//
// Contract:
//   - Search is the state (the query line, the kept query, the lines that
//     hold it, the hit on show); its methods change only that state and
//     say what the call pane must do (kept: count the hits over the body as
//     drawn now; an offset to scroll to). It never touches the viewport,
//     never handles a tea.Msg beyond the key it is given, and does no IO.
//   - FindHits and Highlight are pure functions of the body as drawn; the
//     query is matched case folded on the text without its colours.
//   - The query is server-independent text typed by the person, but it is
//     drawn through render.ServerLine all the same (sanitized).
//
// resultsearch may import themes, tui/render and the charmbracelet
// widgets; never package tui nor another tui subpackage (tui/deps_test.go).
package resultsearch
