// Package keymap is every key the workbench answers, described once (Map,
// built by New): the footer's short help and the ? dialog's full help
// (FullHelp) are generated from it, and docs/keys.md lists the same keys.
// Split turns runes read together into one key each (a paste stays
// whole).
//
// Contract: descriptions only; what a key does is the pane's or the root
// model's that matches it (package tui).
//
// keymap imports the charmbracelet key and tea packages only; never
// package tui nor any other tui subpackage (tui/deps_test.go).
package keymap
