// Package dialog is the workbench's overlay: the dialog stack and each
// dialog (text and help, a yes/no confirmation, a tool call's
// confirmation, a consent request, a changed definition's accept, an
// elicitation form, a url-mode elicitation's safety screen, a sampling
// request with its reply, the roots list, a one-line setting).
//
// Contract:
//   - A Dialog only changes its own state: Handle takes a key and returns
//     an Action (non-nil closes it) and maybe a tea.Cmd; View draws it
//     within the whole screen's w×h. No IO, no backend, no model: what an
//     answer means is the owner's, given as the Actions a dialog returns
//     (Confirm's Yes/No, Consent's Remember/Once/Deny, Elicit's Answer).
//   - Stack holds the open dialogs; only the top one takes keys, and
//     Overlay draws it centred over the frame, every line exactly w cells.
//   - Guard times keys against the dialog on top: a key reaches a dialog
//     only when it is deliberate (guard.go); the clock is the owner's.
//   - Sizing: content at the inner width, padding never margin, a body
//     that does not fit scrolls while title and buttons stay in view; a
//     line too wide wraps (a dialog cuts nothing). Server text is
//     sanitized through tui/render; consent shows env names, never values.
//
// dialog may import consent, engine, engine/sanitize, fields, host/discovery,
// themes, tui/form, tui/render and the charmbracelet widgets; never package
// tui (tui/deps_test.go).
package dialog
