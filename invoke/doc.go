// Package invoke describes every relavium command once — path, args, flags
// (type, default, secret, cli_only), side effect, JSON support, output kind,
// surface and confirm block — and runs them.
//
// The terminal dispatcher, `relavium help`, and the machine surface
// (`relavium mcp serve`) all read the one table returned by Commands, so they
// cannot drift. Every command answers --json with exactly one envelope on
// stdout ({"ok":true,"data":…} or {"ok":false,"error":{…}}); human text goes
// to stderr. Exit codes: 0 success, 1 runtime failure or failed/cancelled run,
// 2 authored or usage error, or consent no one was there to give.
//
// invoke may import host, consent and engine; never tui. The interactive
// session is injected by main through Env.Session.
package invoke
