// Package backend is the seam between the workbench's model and the world:
// the Backend interface (and the request families it gathers: client
// requests, tasks, loads) that package tui calls only from tea.Cmds, never
// from Update or View; the types that cross it (ServerSpec, SessionInfo,
// Answer, NotAdmitted, InputSpec, LockDrift); MessageOf, the words the
// workbench shows for an error; and the workbench's error codes (Codes,
// E701–E706, E924, E970).
//
// Contract: declarations only, no IO and no state. The live implementation
// is package tui/live; the model's tests use a fake.
//
// It may import the session core and the packages whose types its
// interface names (consent, engine, fault, host, host/discovery, loadtest,
// oauth, session, themes, workflow); never tui, nor any other tui
// subpackage (tui/deps_test.go).
package backend
