// Package config is the `relavium config …` family of the command line:
// validate (every config, agent and workflow file, all problems at once;
// validate.go), sources, import (clients.go) and export (export.go) of
// other clients' MCP files. Reading and checking the files is package
// host/config's; this package reports. The table imports it as configcmd
// (the noun is also the name of the room below).
//
// The handlers are named in the one table (package invoke) and nowhere
// else. Imports: the kit (invoke/cli), atomicfile, authored, consent,
// engine/sanitize, host, host/config, host/secrets (import moves a literal
// secret to the store), workflow; never package invoke, another family,
// tui or machine (invoke's deps_test.go).
package config
