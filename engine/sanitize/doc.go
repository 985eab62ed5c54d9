// Package sanitize cleans text that an MCP server wrote before it reaches a
// render, an approval prompt, a log or a model, and decides whether a
// semantic string may pass through unchanged.
//
// Contract (spec/mcp-integration.md "Security", notes/security.md §4):
//
//   - Text and Line clean presentation text (descriptions, titles). They
//     drop whole terminal control sequences (CSI, OSC, DCS, SOS, PM, APC in
//     their 7-bit ESC and 8-bit C1 forms, plus the short ESC forms), every
//     remaining C0/C1 control and DEL, the bidi controls, zero-width and
//     other invisible format characters, the BOM, variation selectors and
//     Unicode tags. Invalid UTF-8 becomes U+FFFD. Text keeps LF and TAB
//     (descriptions are multi-line prose; neither can move the cursor
//     backwards or hide text), turns CRLF into LF and a lone CR, U+2028 and
//     U+2029 into LF (a lone CR would let later text overprint earlier
//     text). Line is for single-line slots and turns every line break and
//     TAB into a space.
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
