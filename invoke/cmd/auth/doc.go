// Package auth is the `relavium auth …` family of the command line: login
// (a declared http server's OAuth sign-in: opens or prints the url, waits
// for the redirect, stores the tokens), ls (stored sign-ins, never tokens)
// and logout. The OAuth client itself is package oauth; this package asks
// the person and reports.
//
// The handlers are named in the one table (package invoke) and nowhere
// else. Imports: the kit (invoke/cli), engine/sanitize, host/config, oauth,
// session; never package invoke, another family, tui or machine (invoke's
// deps_test.go).
package auth
