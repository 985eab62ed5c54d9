// Package e2e tests relavium's consent surface end to end: it builds the
// real binary and runs `relavium consent …` and a headless `relavium mcp ls`
// as child processes with a temporary RELAVIUM_HOME, without a terminal and,
// for the interactive revoke, on a real pseudo-terminal. It has no non-test
// code.
package e2e
