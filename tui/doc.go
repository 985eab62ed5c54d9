// Package tui is relavium's interactive workbench: a Bubble Tea program over
// the same session core (package session), host, consent and engine code as
// the headless commands.
//
// Contract:
//   - Run(ctx, wb) is what main injects as invoke.Env.Session: invoke
//     loads the session.Workbench (config and agent problems are refused
//     there), Run refuses before the alternate screen opens what is left
//     (an unknown theme, an --allow-mcp-stdio digest matching nothing:
//     exit 2), runs the program, and on q, ctrl-c or a signal tears every
//     server down (children reaped) before it returns.
//   - One root Model; every piece of IO runs in a tea.Cmd through the
//     Backend interface (package backend), whose live implementation
//     (package live) is the session core's Live (the connect path every command takes,
//     one consent Decider for the session, one host whose server set
//     changes as servers connect and disconnect: one catalogue, one tool
//     lookup), engine's runner, and one engine.Bus. Model tests use a fake
//     Backend over the real consent package.
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
//   - A dialog takes only deliberate keys (dialog.Guard): a key of a
//     burst begun before the dialog had been on screen for its grace is
//     dropped (and said so); remembering anything takes a capital or a
//     chosen button; q and ? work in every dialog that takes no text.
//   - The command palette (palette.go) lists what paletteSources give:
//     each part of the workbench adds its entries as one source there.
//   - A clipboard copy (y, Y) is an OSC 52 sequence drawn with the frames
//     for a moment (package clipboard; yank.go copies), never a write
//     racing the renderer.
//   - Server text is sanitized (engine/sanitize) before it is drawn; every
//     frame is exactly the terminal's size; lists and results are rendered
//     only where visible (result lines are wrapped once per width), and
//     events arrive in batches so a progress flood costs a frame, not a
//     backlog.
//   - Forms (a tool call, a workflow run, a resource template, a prompt, an
//     elicitation) read fields.Field and type text by the one rule of
//     package fields, as mcp call and run --input do.
//   - The protocol and network views (W; package wireview) read the session's
//     wire hub (host/wire), which the workbench always has in memory;
//     they draw only redacted records and sanitized text.
//   - Error codes E701–E706, E924, E970 (errors.go); E700 is package themes'.
//
// The UI guide (the rules each change keeps):
//   - The root Model routes messages, owns the focus and the layout, and
//     holds the components; it has at most 30 fields (a test counts them).
//     Everything else lives in a component: serversPane (pane_servers.go),
//     browsePane (the tools, resources, prompts and workflows lists and
//     the filter; pane_tools.go), callPane (the form, the jobs, the result
//     viewer and its search (package resultsearch), the history;
//     pane_call.go), the protocol and network views (package wireview,
//     on the dialog stack), tasks (tasks.go), sign-in (authState,
//     signin.go), the status line (statusLine), the
//     event log (eventLog, export_record.go; its strip package
//     eventstrip), the clipboard (clipboard.Clip) and the
//     dialog layer (dialogLayer: the stack, the key guard, consent waiting
//     its turn). A component is a type with its own state, its drawing and
//     its key reading as its own methods (serversPane.view, .details,
//     .key …); it reads the shared ui (ui.go: styles, keys, clock, spinner
//     frame; crush's common.Common) and, by pointer, the neighbours whose
//     state it shows (the servers pane reads authState for "needs
//     sign-in"); it never handles a tea.Msg itself and never does IO.
//   - A pane's key method changes only the pane's own state and returns
//     what it asks of the root (serverAct …), as a dialog returns an
//     Action; the root carries it out (a connect, the focus, a dialog).
//   - The pane router (panes.go) is the one table the root reads for a
//     pane's name, title, body, keys and short help: adding a pane is
//     adding its component and one row there (and a case in geometry).
//   - Update is the only place state changes; a tea.Cmd does IO and
//     answers with a message, never touching the model. View only reads
//     state and fills render caches.
//   - Dialogs are one interface (dialog.Dialog) on one stack
//     (dialogLayer.stack); what an answer means is the Action tui gives it
//     (dialogs.go). A new dialog is a type in package dialog; tui pushes
//     it and applies its Action.
//   - Every key lives in the one keymap.Map (package keymap), so ? lists
//     them all.
//   - A state that can wait says what it waits for and, past its first
//     second, for how long (ui.waited: needs consent 12s, resolving… 3s,
//     signing in… 5s); the tick moves it (animating), never a sleep, and
//     tests move the model's clock.
//   - Side by side, the panes are sized from what they hold (columns in
//     view.go): each pane measures its own content (serversPane.need,
//     browsePane.rowsNeed) and the root lays them out.
//   - Styles come from the theme (m.st); text from a server is sanitized
//     (render.ServerLine / ServerText) before it is drawn.
//   - Behaviour is pinned by golden frames and tmux tests: a refactoring
//     keeps them byte-identical; a golden that must change is a behaviour
//     change and is reviewed as one.
//
// Subpackages, none of which imports tui (deps_test.go):
//   - render: result rendering, pure functions of (content, width, styles).
//   - form: the schema form (a call, a run, a template, a prompt, an
//     elicitation), typing text through package fields.
//   - dialog: the overlay stack and each dialog, and the guard that
//     times keys against the dialog on top; what an answer means is the
//     Action tui gives it (dialogs.go).
//   - wireview: the protocol and network views, a dialog over the wire
//     hub; tui opens it (wireview_open.go), ticks its Refresh and shows
//     its export.
//   - asker: a server's or a run's question carried into the program as
//     a message and its answer back on a channel; tui makes the dialog.
//   - keymap: every key the workbench answers, described once, and the
//     split of runes read together into one key each.
//   - graphics: inline images (the terminal's protocol from the
//     environment, an image's escape sequence, the preview off the
//     alternate screen); results.go's p uses it.
//   - callcmd: the words of the command Y copies (the headless mcp call
//     that makes the call again, with what it needs to run as it stands);
//     yank.go gives it the call and the backend's answer.
//   - shellcmd: the shell text of the command Y copies (quoting, lines
//     laid out within a width) from callcmd's words.
//   - resultsearch: the search inside the result on show (/, n, N):
//     the query line, the lines that hold it, the highlight; the call
//     pane (pane_call.go) scrolls its viewport to the hit it names.
//   - fieldedit: the larger editor ctrl+o opens on an object or array
//     field (items one per line, or one JSON value on many lines); the
//     root writes a kept value back into its field (pane_call.go).
//   - eventstrip: the events strip under a short result: the lines
//     (bounded, sanitized, the same news not twice) and their drawing;
//     what each event adds (Strip.Event).
//   - serverinfo: what the servers pane says of a server beyond its
//     state: its protocol era, why it was not admitted, lock drift, the
//     next retry, what it said at initialize (pure functions of the
//     row's values).
//   - resultview: what a job brought back as the call pane draws it: a
//     tool result by content type, a content part, a prompt, a load's
//     figures, a step, a log line, a task, a failure (pure functions;
//     calls.go's job.body puts them together and caches them).
//   - detailview: i on a browse row: a tool, a skipped tool, a
//     resource, a template, a prompt or a workflow shown in full as a
//     dialog (pane_tools.go picks which); a tool's annotation badge.
//   - clipboard: the copy on the frames (an OSC 52 sequence, sanitized,
//     bounded, numbered), its timer and the dialog showing what was
//     copied; yank.go chooses what to copy.
//   - header: the top line (where the session runs; servers by state,
//     tools, calls) from the counts view.go makes.
//   - backend: the Backend interface and the types and error codes that
//     cross it; declarations only.
//   - live: the backend adapter on the session core, where the
//     workbench's IO lives; run.go builds it, the model sees only
//     backend.Backend.
//
// tui may import session, host, consent, engine and themes; never invoke
// (deps_test.go).
package tui
