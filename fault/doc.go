// Package fault is relavium's one coded error: a stable code, a message a
// person can act on, the cause, the exit class and the structured data a
// --json envelope carries.
//
// Every package that raises errors declares its own typed codes
// (const CodeSpawnFailed fault.Code = "E501") and one Table registering
// them: what each code means and how it ends the process (its exit class).
// The table is the only place a code's exit class is written; Table.New and
// Table.Wrap build errors from it. The repository's README test reads every
// package's table, so each code is documented, each documented code exists,
// and no number is used twice.
//
// The helpers read any error chain the same way for every face: CodeOf,
// MessageOf, CauseOf and ExitOf (the one exit-code mapping the dispatcher
// and the envelope use).
//
// fault is a leaf: it imports only the standard library, so every package
// (consent and netguard at the bottom, invoke and tui at the top) can use it.
package fault
