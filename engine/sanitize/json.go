package sanitize

import (
	"unicode/utf16"
	"unicode/utf8"
)

// EscapeJSON rewrites encoded JSON (one document, or several separated by
// whitespace: NDJSON, JSONL) so that its bytes hold no code point Text
// would remove: every such code point inside a string becomes a \uXXXX
// escape (a UTF-16 surrogate pair beyond the BMP, e.g. the Unicode tags
// U+E0000 block), and every byte that is not UTF-8 becomes \ufffd, which is
// what a JSON decoder reads there anyway. The decoded value is exactly the
// one b encodes: nothing is lost, only spelled differently.
//
// encoding/json escapes C0 controls but writes DEL, the C1 controls
// (U+0080..U+009F: an 8-bit CSI or OSC to some terminals), bidi controls,
// zero-width characters and tags as raw UTF-8, so `cat`, `tee` or `less -R`
// of its output can deliver them; every JSON document relavium writes for a
// person or a file goes through this pass.
//
// In valid JSON every byte at or above 0x7F lies inside a string (outside,
// only ASCII punctuation, literals, numbers and whitespace are allowed), so
// the pass needs no parser: it escapes DEL and non-ASCII code points, and
// copies every other byte. Whitespace between tokens (LF, TAB, CR) is kept.
// Input that is not valid JSON is never made valid; it is only guaranteed
// not to panic. b is returned unchanged (not copied) when nothing needs
// escaping.
func EscapeJSON(b []byte) []byte {
	i := firstJSONDirty(b)
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+len(b)/8+12)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				out = appendEscape(out, 0x7f)
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = appendEscape(out, utf8.RuneError)
		case classify(r) != "":
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				out = appendEscape(appendEscape(out, hi), lo)
			} else {
				out = appendEscape(out, r)
			}
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// firstJSONDirty is the offset of the first byte EscapeJSON must rewrite,
// or len(b).
func firstJSONDirty(b []byte) int {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if (r == utf8.RuneError && size == 1) || classify(r) != "" {
			return i
		}
		i += size
	}
	return len(b)
}

// appendEscape appends \uXXXX for a code unit r <= 0xFFFF, lower-case hex
// as encoding/json writes it.
func appendEscape(out []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
