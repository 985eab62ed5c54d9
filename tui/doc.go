// Package tui is relavium's interactive workbench: a Bubble Tea program over
// the same host, consent, engine and invoke code as the headless commands.
//
// Contract:
//   - Run(ctx, inv, demo) is what main injects as invoke.Env.Session. It
//     refuses before the alternate screen opens whatever can be refused
//     (config and agent problems, an unknown theme, an --allow-mcp-stdio
//     digest matching nothing: exit 2), runs the program, and on q, ctrl-c
//     or a signal tears every server down (children reaped) before it
//     returns.
//   - One root Model; components (panes, the schema form, dialogs on an
//     overlay stack) are plain values with methods. Update is the only place
//     state changes; View only reads state and fills render caches; every
//     piece of IO runs in a tea.Cmd through the Backend interface
//     (backend.go), whose live implementation (live.go) is invoke.Session
//     (the connect path every command takes, one consent Decider for the
//     session), one host per server, engine's registry and runner, and one
//     engine.Bus. Model tests use a fake Backend over the real consent
//     package.
//   - Every consent decision goes through package consent; a tool call
//     goes ahead unasked only on the person's word (consent.ClearCall:
//     tools_auto_approve, or an approval remembered for the tool's exact
//     definition), never on its annotations, which are shown as advisory;
//     otherwise it asks "this call / always for this definition / no"
//     (a definition changed since it was accepted: "this call / no" only,
//     and A on the flagged tool shows the field diff and accepts it);
//     elicitations and
//     workflow gates arrive through an asker (engine.Elicitor / GateFunc)
//     that sends a message into the program and waits on a channel,
//     honouring the requester's context.
//   - Server text is sanitized (engine/sanitize) before it is drawn; every
//     frame is exactly the terminal's size; lists and results are rendered
//     only where visible (result lines are wrapped once per width), and
//     events arrive in batches so a progress flood costs a frame, not a
//     backlog.
//   - Error codes E701–E706 (errors.go); E700 is package themes'.
package tui
