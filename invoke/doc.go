// Package invoke describes every relavium command once — path, args, flags
// (type, default, secret, cli_only), side effect, JSON support, output kind,
// surface and confirm block — and runs them.
//
// The terminal dispatcher, `relavium help`, and the machine surface (package
// machine, `relavium mcp serve`) all read the one table returned by
// Commands, so they cannot drift. Every command answers --json with exactly
// one envelope on stdout ({"ok":true,"data":…} or {"ok":false,"error":{…}});
// human text goes to stderr. Exit codes: 0 success, 1 runtime failure or
// failed/cancelled run, 2 authored or usage error, or consent no one was
// there to give.
// Server text never leaves raw, terminal or not: every JSON document invoke
// writes (envelopes, NDJSON events) goes through MarshalJSON /
// sanitize.EscapeJSON, and every human rendering (results, errors, event
// lines) through sanitize.Writer.
// `mcp call --output FILE` is the one way to the exact bytes (E530, E531).
//
// A command whose effective side effect is not read holds the project
// operation lock while it runs (oplock.go, E460), typed or invoked alike.
// A command run by the machine surface is an ordinary command line of the
// same binary; child.go is its side of that contract: the path the invoker
// checked must be the path this process resolved (E421), and the
// invoker's deadline ends the command a little early so it answers with its
// own envelope.
//
// Every command connects servers through the session core (connect.go);
// the terminal's consent question is its Asker (prompt.go).
//
// invoke may import session, host, consent, engine, nesting, fields,
// regularfile, inbound (replay stands behind mcp serve's door) and
// themes (to refuse an unknown --theme with its E700), and host/netguard
// for its header rules (--header is checked as a config `headers` entry);
// never tui and never machine, the faces that sit on it (deps_test.go).
// mcp call types KEY=VALUE by the one rule of package fields. main injects
// them: the interactive session through Env.Session (invoke loads a
// session.Workbench and hands it over) and the machine surface through
// Env.Serve.
package invoke
