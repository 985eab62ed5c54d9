// Package tui is the Bubble Tea workbench: one root model, components with
// plain methods, dialogs on an overlay stack, no IO in Update. It consumes the
// same engine events and host, consent and invoke code as the headless
// commands; it holds no logic of its own about MCP, consent or gates.
package tui
