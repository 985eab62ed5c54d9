// Package oauth is relavium's OAuth 2.1 client for MCP servers (MCP
// authorization, 2025-11-25, with the 2025-06-18 and 2025-03-26 fallbacks),
// built on go-sdk's auth and oauthex packages: Handler is an
// auth.OAuthHandler the Streamable HTTP transport calls on 401 and 403.
//
// Contract:
//   - Discovery: protected-resource metadata (the WWW-Authenticate
//     resource_metadata url, then the path-based and root well-known urls,
//     its resource checked), then authorization-server metadata (RFC 8414
//     and OpenID Connect urls, issuer checked, PKCE S256 required); without
//     resource metadata the server's origin is the authorization server, and
//     without its metadata the default /authorize, /token and /register.
//   - Client identity, in this order: the declared pre-registered client
//     (oauth.client_id, client_secret as {{secrets.NAME}}), this client's
//     metadata document when the authorization server supports them and
//     oauth.client_metadata_url names one (none by default), then dynamic
//     registration. Token endpoint authentication basic, post or none.
//   - The sign-in: authorization code with PKCE S256, the resource
//     parameter (RFC 8707) on the authorization and token requests, state
//     checked on the redirect, the issuer checked (RFC 9207). Scopes: the
//     challenge's, else the declared ones, else scopes_supported; a step-up
//     (403 insufficient_scope) keeps every scope granted before; at most
//     MaxSignIns per handler, and never again for scopes already granted.
//   - Every url the flow touches (metadata, registration, token) is admitted
//     by the network guard (host/netguard) on its own url before a request
//     is sent, the declaration deciding what may be local (the server's own
//     host:port with allow_local_endpoint, and oauth.allow_local_auth); a
//     refusal is the guard's own code. The guard refuses every redirect; the
//     one redirect of the flow happens in the person's browser.
//   - The redirect listener binds 127.0.0.1 only (an ephemeral port unless
//     oauth.callback_port), takes one callback with the right state and
//     closes; the wait is cancellable and bounded (DefaultWait).
//   - Headless (no Interactive), stored tokens are used and refreshed; a
//     sign-in that is needed is E850 (a step-up E851) naming
//     `relavium auth login SERVER`: no browser is opened without a person.
//   - Store: <home>/oauth, a 0700 directory of 0600 files, one per server
//     identity (url + issuer), replaced through atomicfile. Tokens and
//     client secrets are never logged, never in an error, an event or JSON
//     output (Summary is what may be shown).
//   - Bounds (bounds.go, the one definition): a token or client secret at
//     most MaxToken of printable ASCII, at most MaxScopes distinct scopes
//     of at most 256 bytes, a record file at most 256 KiB. What a server
//     sends beyond them is refused on the way in (E868); Save checks them
//     before writing and read after reading, so no record is written that
//     would not read back. A file's name starts with its url's digest, so
//     one unreadable record fails only its own server (E863 naming `auth
//     logout SERVER`), never another's.
//   - The loopback callback ignores a request with another state or an
//     oversized query (answered 400) and goes on waiting for the real
//     redirect; the right state twice is answered 409, never "signed in".
//
// Where it sits: a top-level room beside consent, not inside host. host
// never imports it: the connections only call the auth.OAuthHandler the
// session core hands them. Its users are the session core (each http
// server's sign-in handler), the `relavium auth` commands and the
// workbench's sign-in, which is where a reader looks for sign-in.
//
// Allowed imports: atomicfile, fault, host/netguard, regularfile.
package oauth
