// Package sanitize cleans text that an MCP server wrote before it reaches a
// render, an approval prompt, a log or a model, and decides whether a
// semantic string may pass through unchanged.
//
// Contract (docs/security.md "Server text never reaches a terminal raw"):
//
//   - Text and Line clean presentation text (descriptions, titles). They
//     drop whole terminal control sequences (CSI, OSC, DCS, SOS, PM, APC in
//     their 7-bit ESC and 8-bit C1 forms, plus the short ESC forms), every
//     remaining C0/C1 control and DEL, the bidi controls, zero-width and
//     other invisible format characters, the BOM, variation selectors and
//     Unicode tags. Invalid UTF-8 becomes U+FFFD. Text keeps LF
//     (descriptions are multi-line prose), turns CRLF into LF and a lone
//     CR, U+2028 and U+2029 into LF (a lone CR would let later text
//     overprint earlier text). No TAB survives: its width is the terminal's
//     tab stops, so it would break the columns of a table or a frame. Text
//     expands it with spaces to the next multiple of 8 columns (one column
//     per code point since the last line break), so tab-separated output
//     keeps its columns; Line turns it into one space, so one name never
//     looks like two. A tool result's exact bytes are what
//     `mcp call --output FILE` is for. Line is for
//     single-line slots — names, titles, labels, versions, log levels, any
//     one-line field — and turns every line break into a space too.
//   - Writer applies Text to everything written through it: human output
//     passes through one at its boundary, whatever its callers cleaned.
//   - EscapeJSON rewrites encoded JSON so that no code point Text removes
//     appears raw in its bytes (each becomes a \uXXXX escape, surrogate
//     pairs beyond the BMP; invalid UTF-8 becomes \ufffd), without changing
//     the decoded value. Every JSON document relavium writes to stdout,
//     stderr or a file goes through it.
//   - Check decides a semantic string (a tool name, property name, enum or
//     const value, required entry, pattern, ...): such a string is never
//     rewritten, so any C0/C1 control (TAB and LF included), bidi control,
//     invisible character or invalid UTF-8 is a Violation and the caller
//     refuses the whole tool.
//   - A string Check accepts is returned unchanged by Text.
//   - LabelExternal marks server text shown to a person or a model as
//     external-server text.
//
// The package is pure: it imports the standard library only.
package sanitize
