// Package shellcmd is the shell text of the command Y copies (the headless
// `relavium mcp call …` that makes the same call as a result on show):
// Quote quotes one word for a POSIX shell, Command is the words on one
// line, Lines lays them out within a width for a person to select, so
// that what is selected and pasted is the same command (no line break
// inside a flag; a word longer than a line cut outside its quotes).
//
// Contract: pure functions of their arguments; which words the command
// holds is package tui/callcmd's, never decided here.
//
// shellcmd may import tui/render (for cell widths) and the standard
// library; never package tui nor any other tui subpackage
// (tui/deps_test.go).
package shellcmd
