// Package run is the workflow family of the command line: `relavium run`
// (a workflow's plan, its gates asked in the terminal or approved with
// --yes, its events) and `relavium workflow ls`. The language and the runs
// are package workflow's; this package connects the servers a run needs
// through the kit and prints what happens. The table imports it as runcmd
// and reads the run row's side effect from WorkflowSideEffect.
//
// The handlers are named in the one table (package invoke) and nowhere
// else. Imports: the kit (invoke/cli), consent, engine, engine/sanitize,
// host, host/config, session, workflow; never package invoke, another
// family, tui or machine (invoke's deps_test.go).
package run
