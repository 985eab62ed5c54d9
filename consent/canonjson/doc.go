// Package canonjson is relavium's one encoder of canonical JSON
// (docs/mcp-integration.md, "The fingerprint (digest v1)"): object
// keys sorted by UTF-16 code units, no insignificant whitespace, strings
// escaped and numbers formatted exactly as ECMAScript's JSON.stringify does.
// A value with no faithful form — a non-finite number, an integer a
// JavaScript number cannot hold, a lone surrogate or other invalid UTF-8, a
// type with no JSON meaning — is refused with an *Error (code E307) naming
// where it sits ($.env.A.value, $.args[2], $ key).
//
// Marshal encodes a Go value tree. The primitives serve encoders that walk
// a tree of their own (host/discovery): CompareUTF16 orders keys,
// AppendString and StringLen escape and measure a string without
// allocating, AppendNumber formats a float64.
//
// It depends on the standard library only (it lives under consent, whose
// rule that is, and engine imports it, which must stay platform-pure).
package canonjson
