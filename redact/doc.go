// Package redact is relavium's one redactor: a Set of every secret value a
// session holds — static header values and the secrets in them, OAuth
// access and refresh tokens and client secrets, stdio env secret values,
// values typed into the workbench's masked prompt — and the one rule that
// replaces them in text on its way out of relavium. host feeds the Set as
// it resolves secrets; the faces apply it at the one place each text
// leaves: the command line's stdout and stderr (human output, the --json
// envelope, --events), the workbench's frames, recordings and exports.
//
// Rules, decided once here:
//
//   - A value is replaced wherever it occurs, longest value first (a value
//     holding another is replaced whole), in one left-to-right pass, by
//     its shown form: {{secrets.NAME}} for a named secret, [REDACTED] for
//     a header value or a token. A replacement never holds a character
//     JSON escapes, so a valid JSON document stays valid.
//   - Each value is also matched in the spellings a server can echo it in
//     without meaning to transform it: JSON-escaped (with and without
//     HTML escaping: \", \\, \uXXXX, \u003c…), and standard and url-safe
//     base64, padded and unpadded (a server that echoes a credential it
//     decoded or encoded). Encodings that depend on the text around the
//     value (a base64 of "user:" + value, percent-encoding inside a url)
//     are not matched: relavium cannot know them.
//   - A value shorter than MinLen (4 bytes) is never matched in free text:
//     replacing every "ab" of a document destroys it, and so short a value
//     guards nothing. Such a value is still never put into a digest, an
//     event field of its own or an error by the code that holds it.
//   - A Set only grows during a session; it is safe for concurrent use and
//     its redaction is a pure function of its values.
//
// Allowed imports: the standard library only.
package redact
