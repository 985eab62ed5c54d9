// Package detailview is i on a row of the browse pane: a dialog that shows
// the row in full — a tool (its description marked as server text, its
// advisory hints, its schemas), a tool refused at discovery and why, a
// resource, a resource template and the variables it fills, a prompt and
// its arguments, a workflow's inputs and steps.
//
// Contract:
//   - Each function builds a dialog.Text from the row's values (and what
//     the caller knows: the server, a template's variables); it changes
//     nothing and does no IO. Badge is a tool's annotation badge, drawn
//     in its row of the tools list too.
//   - Every piece of server text is sanitized (render.ServerLine /
//     ServerText) before it is drawn, and a description is marked as the
//     server's (sanitize.ExternalLabel).
//
// detailview may import engine, engine/sanitize, host, themes, workflow,
// tui/dialog and tui/render; never package tui (tui/deps_test.go).
package detailview
