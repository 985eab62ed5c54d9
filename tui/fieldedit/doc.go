// Package fieldedit is the larger editor ctrl+o opens on a form field of
// type object or array (a dialog.Editor): an array of scalars one item per
// line, each typed by the one rule of package fields; anything else as one
// JSON value on many lines, judged as it is typed (line and column of a
// syntax error, form.SyntaxWhere).
//
// Contract:
//   - New builds the editor for a field, or says the field is typed in
//     place; what keeping the value means is the Action the caller gives
//     (the root writes the compact value back into the field of the form
//     it came from). It changes nothing and does no IO.
//   - The field's name (a server's text) is sanitized (render.ServerLine)
//     before it reaches the dialog's title.
//
// fieldedit may import fields, themes, tui/dialog, tui/form and
// tui/render; never package tui (tui/deps_test.go).
package fieldedit
