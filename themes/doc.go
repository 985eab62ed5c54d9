// Package themes holds relavium's colours: one semantic palette (primary,
// muted, ok, warn, error, border, selection, diff add/del, badges, JSON and
// log-level colours) with the built-in themes dark, light, high-contrast and
// mono, an adaptive default ("auto": light or dark from the terminal's
// background), and the lipgloss styles every view draws with.
//
// Contract:
//   - Choose picks the theme: --theme, then RELAVIUM_THEME, then `theme` in
//     config, then NO_COLOR (set and non-empty → mono), then auto. An
//     unknown name is a *Error (E700, exit 2) naming where it came from.
//   - NewStyles builds every style on a caller's *lipgloss.Renderer, so the
//     colour profile and background are the caller's (tests fix both); the
//     package keeps no global state and never touches lipgloss's default
//     renderer.
//   - mono draws no colour at all: emphasis is bold, underline, reverse.
//
// themes imports lipgloss only.
package themes
