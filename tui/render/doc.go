// Package render turns content into terminal lines for the workbench: the
// result and dialog text of package tui and its subpackages.
//
// Contract:
//   - Every function is pure: (content, width, theme styles) → string or
//     lines; no state, no IO, no model.
//   - Server text goes through ServerLine / ServerText (engine/sanitize:
//     escape sequences, bidi and invisible characters removed) before it is
//     drawn; JSONLines sanitizes every line of pretty JSON it returns.
//   - Fit pads or cuts to exactly w cells and PadLines makes a block exactly
//     w×h, so no content can wrap, scroll or break a frame; Wrap and
//     WrapIndent lose nothing (a word longer than the width is broken).
//   - Pretty JSON keeps member order; above 256 KiB it is shown without
//     colour so a large blob stays fast to draw.
//
// render may import engine/sanitize, themes and the charmbracelet ansi and
// lipgloss packages; never package tui or its other subpackages (tui/deps_test.go).
package render
