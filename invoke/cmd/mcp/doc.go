// Package mcp is the `relavium mcp …` family of the command line: ls (and
// the inventory `relavium session` prints headless; inventory.go), ping,
// call (its --output, result.go and output.go, and --task, task.go), read
// and complete (read.go, read_subscribe.go), prompts, resources and prompt
// (browse.go), tasks, accept, bench, and where a listed server came from
// (sources.go). One verb, one file; what several verbs share (the ad-hoc
// --url/--stdio target, Targets, ProtocolFlag, the listing types) is in
// ls.go. The CI gates' verbs (mcp lock, check, lint) are their own family,
// invoke/cmd/gates; mcp serve is the kit's hand-off to the machine surface.
//
// The handlers are named in the one table (package invoke) and nowhere
// else. They connect through the kit's session-core seam (invoke/cli) and
// never print server text raw.
//
// Imports: the kit (invoke/cli), atomicfile, consent, engine,
// engine/sanitize, fault, fields, host, host/config, host/discovery,
// host/era, host/netguard, loadtest, nesting, session; never package invoke, another
// family, tui or machine (invoke's deps_test.go).
package mcp
