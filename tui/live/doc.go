// Package live is the workbench's backend adapter: backend.Backend over the
// real packages — the session core's Live (resolution and one consent
// Decider for the session, one host whose server set changes as servers
// connect, fail, reconnect and close), the engine's runner, and one event
// bus. It is where the workbench's IO lives: connects and calls, session
// and view exports and saved parts under <home> (written whole through
// atomicfile), sign-in, the browser a link opens in.
//
// Contract: New builds it from the session.Workbench main hands to tui.Run;
// SetElicitor installs the model's elicitor before anything connects;
// Close tears every server down (children reaped) and ends the event
// stream. Every method may block and is called off the update loop.
//
// It may import the session core, host and its subpackages, consent,
// engine, gates/lock, loadtest, oauth, workflow, atomicfile and
// tui/backend; never tui nor the drawing subpackages (tui/deps_test.go).
package live
