// Package clientside holds the client's side of MCP that needs no
// connection: what host does with a server's requests to the person
// before and after the person (or a script) answers them.
//
// Contract:
//   - Elicit answers one elicitation/create through the Elicitor (declined
//     without one, and in url mode unless url elicitation was declared),
//     the schema in the server's field order, every text redacted and
//     cleaned, the server's calls held while the person is asked, given up
//     (cancel) when the request or the server's lifetime ends; each answer
//     is an elicitation:resolved event (ResolvedData).
//   - FieldOrders keeps the property order of each elicitation schema as
//     the server sent it (read off the raw request, keyed by the schema's
//     canonical JSON, at most 16 waiting, each used once), so a form shows
//     the fields in the server's order, not the decoded map's; a schema it
//     does not know is left as decoded.
//   - ScreenURL screens a url-mode elicitation's url before anything is
//     shown: https, or http on loopback, never with credentials, the full
//     origin shown, warnings for a host name that can read as another
//     (punycode, non-ASCII, mixed scripts, a bare IP). It decides nothing.
//   - Sampling as the person sees it: SampleRequest cleans and redacts
//     every text of a sampling/createMessage (the connection's redactor),
//     bounded (64 messages, 64 tools, 64 KiB a text); SamplingBurst and
//     SamplingPerMinute bound how often one server may ask (E902);
//     RelayedDecline tells a call failed over relavium's own decline.
//     AskAbandonable asks an answerer and gives up (ErrAbandoned) as soon as
//     the request or the server's lifetime ends.
//   - Root is one offered directory: ResolveRoot (absolute, an existing
//     directory, symlinks resolved; else E903), ResolveRoots (each once).
//   - The answerers a command hands host when no person is asked:
//     DeclineElicitor (the headless default), DefaultsElicitor (a form's
//     declared defaults, declined when a required field has none; see
//     SchemaDefaults) and ReplySampler (one fixed sampling answer).
//
// host installs the handlers on its connections and hands each what it
// needs of the connection (Elicitation); the sampling handler and the roots
// a client offers stay in host, which owns the connections.
//
// clientside may import consent/canonjson, engine, engine/sanitize, fault,
// fields and host/failure; never host's root or anything above
// (deps_test.go).
package clientside
