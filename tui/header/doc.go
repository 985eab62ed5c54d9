// Package header is the workbench's top line: where the session runs
// (project or demo, agent) and, on the right, the servers by state as
// coloured glyphs, the tools and the calls (running ones first).
//
// Contract:
//   - Line is a pure function of a Summary (the counts the root makes from
//     its servers and jobs), the width and the styles; it is exactly w
//     cells (render.SpaceBetween). No state, no IO.
//
// header may import themes and tui/render; never package tui nor another
// tui subpackage (tui/deps_test.go).
package header
