// Package gates is the CI gates' family of the command line: `mcp lock`
// and `mcp check` (lock.go; --against a recording through replay.go),
// `mcp lint` (lint.go) and `relavium replay`. The judgements themselves
// live in the gates room (gates/lock, gates/lint, gates/replay); this
// package connects the declared servers, hands what they offer to a gate
// and renders its verdict.
//
// The handlers are named in the one table (package invoke) and nowhere
// else. Their tests are invoke's end-to-end suite (they run the binary).
//
// Imports: the kit (invoke/cli), the mcp family (invoke/cmd/mcp: its
// Targets, the one use between families this package makes), the gates,
// fault, host, host/config, host/wire, inbound, invoke/demoserver; never
// package invoke, another family, tui or machine (invoke's deps_test.go).
package gates
