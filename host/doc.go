// Package host is relavium's MCP client host on go-sdk v1.8.0: it connects
// every declared server concurrently under relavium's deadlines (stdio only
// after consent approves it), discovers tools under the ingress bounds (both
// in docs/mcp-integration.md), routes calls by internal id, streams progress
// and logs as engine events, and tears every session and child process
// group down on Close.
//
// Contract:
//   - Start fails loud: any server failing its spawn/dial, initialize or
//     tools/list walk fails the start with EVERY failure listed
//     (*StartError, with each server's status), and nothing is left running.
//     Secrets are resolved before anything is spawned (a missing one: exit 2).
//   - stdio: the consent-resolved absolute command, in the digested cwd, in its
//     own process group, confined by its sandbox policy when the Resolved
//     carries one and the machine can (sandbox.go: relavium's own
//     sandbox-exec, Options.SandboxLauncher, between fork and exec; a
//     private TMPDIR; network "guarded" through a CONNECT proxy whose every
//     target the guard admits (netguard.DialTunnel); "required" where
//     nothing can confine is E340; ServerStatus.Sandbox says which), with only HOME LOGNAME PATH SHELL TERM USER LANG LC_* (host/expand)
//     TZ of relavium's environment plus the declared env ({{secrets.NAME}}
//     from a secrets.SecretStore (host/secrets); never logged, never in an event, redacted from the
//     stderr tail). http, sse and websocket exist only through the network
//     guard (guarded.go): there is no other http client in host.
//   - A network server's static headers (Endpoint.Headers; host/headers) are
//     resolved before anything is dialled, from the same secrets.SecretStore, and set
//     on every request by a RoundTripper around the guard's (the websocket
//     handshake too). Each value, and each secret in it, is redacted like an
//     env secret from everything host reports, a result that repeats it
//     included; Endpoint.StaticAuthorization is the predicate that keeps a
//     server carrying its own Authorization from any OAuth probing.
//   - Deadlines (stdio 120 s spawn→initialize, network 30 s, connect_timeout_ms
//     up to 10 min; 60 s for the whole tools/list walk; 60 s per call) and
//     cancellation are distinct typed failures (E502/E584/E510 vs E511), classified
//     when classified: the caller's cancellation wins.
//   - Every message a server sends is gauged for nesting before the SDK
//     decodes it: past nesting.MessageDepth (512) the stream is cut,
//     E518 on stdio (host/stream), E572 from the guard on the network.
//     On stdio a tools/list page is taken off the stream before that
//     (discovery.Capture.Reader, transport.go): discovery judges it tool by
//     tool and the SDK reads an empty stub page.
//   - The server set changes while the host runs (servers.go): Add connects
//     one more server under the same checks and deadlines (on failure
//     nothing of it is left and it is not in the set), Remove takes one out
//     and returns once its child is reaped, Reconnect is Remove then Add of
//     the same declaration. Tools are renamespaced across the set on every
//     change; a tool keeps its id while its connection stays, so one
//     lookup (Lookup, by namespaced name) serves every face.
//   - Calls are routed by engine.ToolID, validated by discovery before
//     dispatch; a result whose text exceeds 1 MiB fails (E512); isError is a
//     result. Progress reaches a call only from its own server. Nothing host
//     does blocks the SDK's notification goroutine.
//   - Every admitted tool carries its pin digest (ToolDef.Digest) and, while
//     its definition differs from the one the person accepted, Changed and
//     its field diff (Changes). Accept accepts a flagged tool as it is now:
//     consent's approval store lapses the tool's remembered approvals
//     first, then discovery's pin store pins it; a failure leaves it
//     flagged. host never decides whether a call may go ahead: that is
//     consent.ClearCall, asked by the command or the workbench.
//   - Elicitation goes to the Elicitor (declined without one) with the
//     server's field order restored where host reads the connection itself
//     (host/clientside.FieldOrders); a server that never answers logging/setLevel gets
//     a share of the discovery window, not all of it.
//   - Client requests: a log goes to a call (CallOptions.OnLog) only when
//     read off the wire while that call was the only request in flight on
//     its server, else to the server (host/route, logging.go; SetLogLevel per server);
//     resources/updated is reported only for a uri subscribed in this
//     session (subscribe.go); completion values a terminal cannot show as
//     they are dropped (host/browse); tasks, which go-sdk v1.8.0 lacks,
//     go over relavium's own request ids on the connections host reads,
//     never over Streamable HTTP (host/direct, host/tasks, tasks.go).
//   - The client's side (clientside.go): sampling is declared and goes to
//     the Sampler (declined with E901 without one; at most 10 a minute per
//     server, E902), every request and answer an event; roots are offered
//     only when Options.Roots is set (directories, symlinks resolved, E903;
//     SetRoots sends roots/list_changed); url-mode elicitation is declared
//     only with Options.URLElicitation, its url screened first (clientside.ScreenURL).
//     A call's idle and hard deadlines count active time only
//     (host/deadline): a dialog open on its server's behalf pauses them, its
//     progress starts the idle one again.
//   - Close cancels every call and handler first, then closes sessions, then
//     stdin EOF → SIGTERM → grace → SIGKILL to each child's process group
//     and to every process recorded below the child that left the group
//     (host/proc's lineage: pid + start time, walked every 50 ms), and returns
//     once every child and every recorded orphan relavium received is reaped.
//     proc.BecomeSubreaper (Linux) is the command's to call, once, at start. A server that dies mid-session
//     is marked failed (exit status, stderr tail); the others keep working.
//   - Protocol eras (host/era; the handshake in protocol.go): a server asks for 2025-11-25 (the
//     default), 2026-07-28 (a server that does not speak it fails, E597) or
//     auto, which asks for the modern era first only where a stateful
//     server pays no extra round trip for it (stdio, websocket; over
//     Streamable HTTP only once a stateless server answered). Status and
//     events carry the negotiated version and its Era.
//   - Liveness: Ping measures a round trip (E598 without an answer); a
//     list_changed walks the tool list again under discovery's checks and
//     pins (listchanged.go); a network server whose connection is refused
//     or whose session answers 404 (E599) is failed at once, its calls in
//     flight with it (liveness.go), and with Options.Reconnect dialled
//     again with backoff (reconnect.go); a stdio server never is.
//   - proc.KillChildren is the exit that cannot wait for Close (main calls it on
//     a second signal, or when a command has not ended 2 s after the
//     first): every child of the process, and the process group of each
//     that leads one, is SIGKILLed at once (children found in /proc).
//
// host implements engine.ToolHost. It may import consent, engine,
// engine/sanitize, fault, redact and sandbox, and its rooms; never tui or
// invoke.
//
// Its rooms stand below the root, which composes them, and never import it
// (deps_test.go):
//   - config: authored files (config.toml, agents, other clients' files);
//   - discovery: the bounded tools/list walk, schemas, namespacing, pins;
//   - netguard: the one SSRF-guarded dialer every network connection uses;
//   - wire: the wire recorder;
//   - proc: the process side of a stdio connection (spawn, stderr ring,
//     lineage, teardown, subreaper, KillChildren);
//   - deadline: a deadline told from a cancellation, and the call clock
//     (active time only; deadlinetest moves its time by hand in tests);
//   - clientside: the client's side of MCP that needs no connection
//     (elicitation field order, url screening, the headless answerers);
//   - stream: the byte stream of the connections host reads itself (stray
//     stdout lines, the nesting gauge, the websocket connection);
//   - secrets: the secret stores (environment, the person's file, a chain)
//     and AddFileSecret;
//   - era: the protocol eras (the versions asked for, what a negotiated one
//     means, discover-first);
//   - failure: host's coded error (a server's failure, with its stderr tail)
//     and every code host raises;
//   - expand: a stdio server's environment and arguments with their
//     {{env.VAR}} and {{secrets.NAME}} references expanded;
//   - direct: the requests relavium writes itself beside the SDK (the raw
//     path of tasks, the load path of mcp bench);
//   - route: what a server sends during a request, delivered in order
//     without blocking a reader (the delivery queue, progress by token,
//     logs to the one call they can belong to, the log levels);
//   - browse: resources, prompts and completions as they run on one
//     session, and a server's details from its initialize answer;
//   - headers: a network server's static headers (the Header type,
//     resolving and checking them, the RoundTripper that sets them);
//   - tasks: MCP tasks as relavium sees them (Task, its statuses, a task
//     taken off the wire, which part of tasks a server declares); host
//     sends their requests.
package host
