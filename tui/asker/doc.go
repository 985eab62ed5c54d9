// Package asker carries what a backend goroutine needs a person to answer
// (a server's elicitation or sampling request, a workflow gate) into the
// Bubble Tea program as a message (Msg), and waits for the answer on a
// channel (Reply hands it back without ever blocking). Both waits honour
// the requester's context: a server that gives up or a run that is
// cancelled never leaves a goroutine or a dialog behind (GoneMsg), and
// Close answers every pending and future question with ErrClosed.
//
// Contract: the Asker is an engine.Elicitor and engine.Sampler, and Gate
// is a workflow.GateFunc; which dialog a Request becomes is the
// workbench's (package tui). No IO beyond its channels.
//
// asker may import engine, workflow and the Bubble Tea package; never
// package tui nor any other tui subpackage (tui/deps_test.go).
package asker
