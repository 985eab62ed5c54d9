// Package cli is the command line's kit, the floor every command family of
// invoke stands on (as cli/cli's cmdutil is): the table's types (Command,
// Flag, Arg, SideEffect, Surface; registry.go), parsing and dispatch
// (Dispatch), help, the Invocation a handler receives and the Env it may
// touch, the envelope, the command line's error codes (one registration,
// Codes), the operation lock, the machine child's side of the contract, and
// what several families share: connecting through the session core
// (connect.go), the client-side flags (clientside.go), the terminal's
// questions (prompt.go, confirm.go, gate.go) and the event printers
// (events.go).
//
// It holds no command and no table: package invoke builds the one table
// (invoke.Commands) and hands it to Dispatch; the families live in
// invoke/cmd/….
//
// Every command answers --json with exactly one envelope on stdout
// ({"ok":true,"data":…} or {"ok":false,"error":{…}}); human text goes to
// stderr. Exit codes: 0 success, 1 runtime failure or failed/cancelled run,
// 2 authored or usage error, or consent no one was there to give. Server
// text never leaves raw, terminal or not: every JSON document (envelopes,
// NDJSON events) goes through MarshalJSON / sanitize.EscapeJSON, and every
// human rendering (results, errors, event lines) through sanitize.Writer.
//
// A command whose effective side effect is not read holds the project
// operation lock while it runs (oplock.go, E460), typed or invoked alike.
// A command run by the machine surface is an ordinary command line of the
// same binary; child.go is its side of that contract: the path the invoker
// checked must be the path this process resolved (E421), and the invoker's
// deadline ends the command a little early so it answers with its own
// envelope.
//
// Imports: consent, engine, engine/sanitize, fault, host, host/config,
// host/netguard (the header rules), host/wire, session, themes (to refuse an
// unknown --theme with its E700), workflow (a gate's question); never a
// command family, invoke, tui or machine (deps_test.go in invoke).
package cli
