// Package netguard is relavium's one SSRF primitive. Every url relavium ever
// fetches — an MCP server's http, sse or websocket endpoint, and any url a
// server hands over later (the legacy SSE endpoint event, OAuth discovery
// documents, resource links) — goes through a Guard; nothing else in relavium
// builds an http.Client or a dialer for a remote url.
//
// Contract:
//   - AdmitURL / (*Guard).Admit check an authored url at parse time, with no
//     resolution: scheme http|https|ws|wss agreeing with the transport; no
//     userinfo, zone id, non-ASCII or numeric-trick host (127.1, 0x7f.1,
//     2130706433, 0177.0.0.1: only what netip.ParseAddr accepts is an IP);
//     remote targets need https; a websocket must be local and opted in
//     (remote websocket: use transport http); a literal metadata or
//     special-purpose address is refused always, a literal private one
//     without allow_local_endpoint. Refusals exit 2.
//   - Admit returns a *Target, which host's network transports require:
//     HTTPClient(t) for http/sse and DialWebsocket(ctx, t, opts) for websocket
//     are the only ways to connect, so an unguarded connection does not
//     compile, and a Target the guard did not admit is refused (E568).
//   - Each dial resolves once through the injected Resolver and checks EVERY
//     answer: cloud metadata endpoints (also inside IPv4-mapped, -compatible,
//     NAT64, 6to4 and Teredo forms) are refused always; code.dny.dev/ssrf (the
//     IANA special-purpose registries) decides public; allow_local_endpoint
//     opens loopback, RFC 1918, CGNAT and ULA for the exact authored
//     host:port only, and only when the name actually resolves there. The
//     connect is pinned to a validated address (hostname kept as SNI, TLS
//     verification on) and re-checked by the dialer's Control hook.
//   - A proxy is used only when the guard is given one (WithProxy, from the
//     HTTPS_PROXY / HTTP_PROXY / NO_PROXY the command passes in; a loopback
//     target, or a name resolving here to loopback only, never): the target is still resolved here and every answer
//     range-checked before anything is sent, then only the proxy's address
//     (the person's choice, private or not) is dialled, CONNECT for https
//     with TLS verified end to end. The proxy resolves the name again on
//     its own; that answer the guard cannot see or pin. An unusable proxy
//     setting or a refused CONNECT is E596.
//   - Any 3xx is refused after exactly one request (E565); every request
//     must stay on the admitted origin (E567); each response message is
//     bounded at 4 MiB of raw bytes (E566), per SSE event on
//     text/event-stream and per body otherwise. An event ends at a blank
//     line whatever its line endings (LF, CRLF, lone CR, mixed); the body
//     reaches its reader with every SSE line ending rewritten to LF (the
//     SDK's scanner splits at LF only). Each JSON message (an
//     application/json body, the data of one SSE event) nesting arrays and
//     objects deeper than nesting.MessageDepth (512) is refused while it is read,
//     before anything decodes it (E572); nesting.JSONGauge is that streaming check.
//   - CheckHeaderName / CheckHeaderValue decide which static headers a
//     person may add to a target's requests (config `headers`, --header):
//     never one that reroutes or reframes a request (Host, hop-by-hop and
//     framing headers, Proxy-*, Sec-WebSocket-*) or overrides what the MCP
//     transport sends itself; values without control characters, bounded.
//   - Every refusal is an *Error with its own code (E550–E579), a reason, the
//     refused address and a remedy; an ordinary connection failure is never
//     an *Error. Target.Refusal keeps the first refusal met while connecting
//     for when an SDK transport drops the cause; WithRefusalNote reports each
//     refusal to an observer carried by the request's own context, so a
//     failed call (or stream) is classified by its own refusal.
package netguard
