// Package headers holds a network server's static request headers (config
// `headers`, `--header`): the Header type, whose value is a secret wherever
// it would be shown; Resolve, which expands each {{secrets.NAME}} from the
// secret stores and each {{env.VAR}} from relavium's environment (only one
// bound to the server's origin, E523; every missing secret named at once,
// E520; an unset variable E880) and checks each name and resolved value
// against the guard's header rules and bounds (E594), returning the whole
// values to redact; and With, the RoundTripper that sets them on every
// request the SDK makes and notes a 401 or 403 answer.
//
// No header value is ever put in an error, a String, a GoString or JSON.
//
// headers may import consent, fault, host/expand, host/failure,
// host/netguard and host/secrets; never package host, whose root composes
// it.
package headers
