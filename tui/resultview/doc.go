// Package resultview draws what a job brought back, in the call pane's
// body: a tool result by content type (text wrapped, JSON pretty and
// coloured, media as a labelled size line, resources and links by uri,
// structured content), one content part, a prompt's messages, a load's
// figures and chart; and around them a workflow's steps, a job's log
// lines, where a task is, and a failed or cancelled job's end.
//
// Contract:
//   - Pure functions of (content, width, styles): no state, no IO; the
//     caller (tui's job.body) caches the lines per width and version.
//   - Server text is sanitized (render.ServerLine / ServerText) before it
//     is drawn; a part's identity (a uri, a media type and size) wraps at
//     any width, never cut.
//
// resultview may import engine, host, loadtest, themes, tui/graphics and
// tui/render; never package tui (tui/deps_test.go).
package resultview
