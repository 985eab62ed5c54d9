// Package form is the workbench's schema form: the widget behind a tool
// call, a workflow run, a resource template, a prompt and an elicitation.
//
// Contract:
//   - New builds one field per fields.Field, in schema order: typed text,
//     a picker for an enum or a boolean, a multi-select for an array of
//     enum members; defaults prefilled, then a replayed call's values.
//   - Text is typed into a JSON value by fields.Field.Value, the one rule
//     mcp call KEY=VALUE and run --input use; Args builds the arguments
//     object with members in field order, and a field that does not type
//     carries its own inline error. Raw JSON (ToggleRaw) is refused deeper
//     than nesting.JSONDepth before it is decoded.
//   - Server text (titles, descriptions, enum labels, errors) is sanitized
//     through tui/render before it is drawn; View never returns more lines
//     than it is given, keeping the focused field in sight.
//   - No IO: Update returns bubbletea commands, the owner decides.
//
// form may import fields, nesting, host/discovery (its validation error's
// JSON pointer), themes, tui/render and the charmbracelet widgets; never
// package tui or tui/dialog (tui/deps_test.go).
package form
