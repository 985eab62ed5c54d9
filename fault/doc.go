// Package fault is relavium's one coded error: a stable code, a message a
// person can act on, the cause, the exit code and the structured data a
// --json envelope carries.
//
// Every package that raises errors declares its own typed codes
// (const CodeSpawnFailed fault.Code = "E501") and one Table registering
// them: what each code means and its exit class (Usage exits 2, Failure
// exits 1, Varies where the raising site chooses). Table.New and Table.Wrap
// build an error whose exit code is its class. The repository's codes test
// reads every package's table: each registered code has a row in docs/error-codes.md, each
// row is a registered code, and no number is registered twice.
//
// A package whose errors carry more (host's server, stderr tail and exit
// status; engine's run and step) embeds Base in its own type and overrides
// only what the extras change. Aggregates that list several errors (config's
// problems, a failed start, consent's pending servers) implement Coded.
//
// The helpers read any error chain the same way for every face: CodeOf,
// MessageOf, CauseOf and ExitOf (the one exit-code mapping the dispatcher
// and the envelope use).
//
// fault is a leaf: it imports only the standard library, so every package
// (consent and netguard at the bottom, invoke and tui at the top) can use it.
package fault
