// Package session is the workbench family of the command line:
// `relavium session` (the interactive workbench on a TTY, handed to the
// face main injects; the mcp ls inventory headless), `relavium demo` (the
// same on the embedded demo agent) and the hidden `demo-server`
// (demo_server.go). The table imports it as sessioncmd (the noun is also
// the session core's name).
//
// The handlers are named in the one table (package invoke) and nowhere
// else. Imports: the kit (invoke/cli), the mcp family (invoke/cmd/mcp: its
// listing and inventory, the one use between families this package makes),
// engine/sanitize, host, host/config, host/wire, invoke/demoserver,
// session; never package invoke, another family, tui or machine (invoke's
// deps_test.go).
package session
