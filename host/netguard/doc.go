// Package netguard is the one SSRF primitive: URL admission, a resolver-
// injected validated dialer that range-blocks every resolved address and
// connects pinned to it, redirect refusal, cloud-metadata refusal, the scoped
// allow_local_endpoint opt-in, and the 4 MiB per-message transport bound.
// No http, sse or websocket connection can be built without it.
package netguard
