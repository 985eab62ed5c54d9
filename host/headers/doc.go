// Package headers holds a network server's static request headers (config
// `headers`, `--header`): the Header type, whose value is a secret wherever
// it would be shown; Resolve, which expands each {{secrets.NAME}} from the
// secret stores and each {{env.VAR}} from relavium's environment (only one
// bound to the server's origin, E523; every missing secret named at once,
// E520; an unset variable E880) and checks each name and resolved value
// against the guard's header rules and bounds (E594), returning the whole
// values to redact; Helper.Run, which runs a consent-approved headers
// helper (sh -c LINE through host/proc, in its own process group, with
// the inherited environment, a deadline and bounded output, the group
// gone when it returns) and reads its stdout as a JSON object of headers
// under the same rules (E524, E525), each value given to the redactor;
// Merge, the helper's headers over the static ones; and With, the
// RoundTripper that sets them on every request the SDK makes and notes a
// 401 or 403 answer.
//
// No header value is ever put in an error, a String, a GoString or JSON.
//
// headers may import consent, fault, host/expand, host/failure,
// host/netguard, host/proc, host/secrets and redact; never package host,
// whose root composes it.
package headers
