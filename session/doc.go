// Package session is the core every face of relavium connects servers
// through (the one-shot commands of package invoke and the interactive
// workbench of package tui): given plain options — the relavium home, the
// allowed stdio digests, an Asker for what only a person can answer, an
// event sink — it resolves every declared stdio command to the absolute
// command its consent digest names, decides each one's consent through
// package consent (one Decider per Session, so answers given once hold for
// the session), admits every network url through the one network guard,
// and connects through package host.
//
// Contract:
//   - A stdio server starts only once consent approves its digest: a
//     remembered grant, an --allow-mcp-stdio digest, or the Asker's answer.
//     With no Asker a server still needing consent fails the connect with
//     consent's PendingError (exit 2, the digests listed); nothing is
//     spawned or dialled. A denied server is reported failed (E301) and
//     does not fail the others.
//   - A declaration that does not resolve, and a url the guard refuses, fail
//     with the error of consent or netguard, prefixed with where the server
//     is declared (file:line:col).
//   - Every guard the session builds (connects, the live session, auth
//     login) takes HTTPS_PROXY / HTTP_PROXY / NO_PROXY from Options.LookupEnv,
//     never from the process behind the caller's back; a network server's
//     static headers travel to host as declared, {{secrets.NAME}} unresolved.
//   - Start connects a fixed set at once (host.Start, fail-loud); Open,
//     Connect and Disconnect keep one host whose server set changes while
//     it runs (host.Add, host.Remove): one catalogue, one tool lookup.
//   - An ad-hoc server (a url or a command line, ParseAdhoc, built as
//     `mcp ls --url/--stdio` builds one) joins a running session by Declare
//     or Live.AddAdhoc, named adhoc, adhoc-2, …: its consent is decided by
//     the same Decider (never remembered: it has no source), its url
//     admitted by the same guard before anything is dialled. The server list
//     is read under a lock, as a copy, everywhere.
//   - session never writes to a terminal: asking, and saying what was
//     recorded, is the Asker's (the face that owns the terminal); a store
//     warning goes to Options.Warn.
//
// session may import consent, engine (and engine/sanitize), host and its
// sub-packages; never invoke or tui.
package session
