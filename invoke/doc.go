// Package invoke is relavium's command line: the one command table
// (Commands) — every command's path, args, flags (type, default, secret,
// cli_only), side effect, JSON support, output kind, surface and confirm
// block, and its handler — and Main, which hands it to the kit's
// dispatcher (package invoke/cli).
//
// The terminal dispatcher, `relavium help`, shell completion
// (completion.go), the man page (man.go) and the machine surface (package
// machine, `relavium mcp serve`) all read the one table returned by
// Commands, so they cannot drift. The handlers live family by family under
// invoke/cmd/<noun>, as cli/cli groups pkg/cmd/<noun>/<verb>: mcp, gates
// (mcp lock, check, lint and replay), config, consent, auth, run (run and
// workflow ls) and session (session, demo, demo-server); `mcp serve` and
// help stand with the kit in invoke/cli; version, completion and man are
// here, beside the table they read. The table is the only place the
// families meet. invoke's own tests are the command line's end-to-end
// suite: they run the binary (or Main) through the one table.
//
// Every command answers --json with exactly one envelope on stdout and
// connects servers through the session core (invoke/cli's connect.go);
// the terminal's consent question is its Asker (invoke/cli's prompt.go).
// `mcp call --output FILE` is the one way to the exact bytes (E530, E531).
//
// invoke may import the kit (invoke/cli), the families (invoke/cmd/…),
// host (the log levels of mcp call's row), host/discovery and gates/lock
// (the declared names shell completion offers); never tui and never machine,
// the faces that sit on it (deps_test.go). main injects them: the
// interactive session through Env.Session (the session family loads a
// session.Workbench and hands it over) and the machine surface through
// Env.Serve.
package invoke
