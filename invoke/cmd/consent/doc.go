// Package consent is the `relavium consent …` family of the command line:
// ls (ls.go), digest for CI (digest.go), grant and revoke of stdio spawn
// consent (consent.go), and the secret bindings a grant carries (bind.go).
// The fingerprint, the grant store and the decisions are package
// consent's (the room below); this package asks the person and reports.
// The table imports it as consentcmd (the noun is also that room's name).
//
// The handlers are named in the one table (package invoke) and nowhere
// else. Imports: the kit (invoke/cli), consent, host, host/config, sandbox
// (a digest covers the server's sandbox policy), session; never package
// invoke, another family, tui or machine (invoke's deps_test.go).
package consent
