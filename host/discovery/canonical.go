package discovery

import (
	"slices"
	"strconv"

	"github.com/relavium/relavium/consent/canonjson"
)

// Canonical JSON (the consent digest's canonical form, encoded by package canonjson's
// primitives): object keys sorted by UTF-16 code units, no insignificant
// whitespace, ECMAScript JSON.stringify string escaping and number
// formatting. Bounds measure this form; pins hash it. The walk is discovery's
// own because its tree keeps member order and duplicate keys.

// appendCanonical appends the canonical JSON of n.
func appendCanonical(dst []byte, n *node) []byte { return appendNode(dst, n, true) }

// appendOrdered appends n as compact JSON in the order the server sent it
// (for the schema a form or a model reads).
func appendOrdered(dst []byte, n *node) []byte { return appendNode(dst, n, false) }

// appendNode appends n as compact JSON, object members in UTF-16 key order
// when sorted (a stable sort: duplicate keys keep their order), else as sent.
func appendNode(dst []byte, n *node, sorted bool) []byte {
	switch n.kind {
	case kObject:
		var idx []int
		if sorted {
			idx = make([]int, len(n.obj))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int { return canonjson.CompareUTF16(n.obj[a].key, n.obj[b].key) })
		}
		dst = append(dst, '{')
		for j := range n.obj {
			m := &n.obj[j]
			if sorted {
				m = &n.obj[idx[j]]
			}
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, m.key)
			dst = append(dst, ':')
			dst = appendNode(dst, m.val, sorted)
		}
		return append(dst, '}')
	case kArray:
		dst = append(dst, '[')
		for i, v := range n.arr {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendNode(dst, v, sorted)
		}
		return append(dst, ']')
	case kNull, kTooDeep:
		return append(dst, "null"...)
	case kBool:
		if n.b {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case kNumber:
		return appendNumber(dst, n.str)
	case kString:
		return appendJSONString(dst, n.str)
	}
	return dst
}

// canonicalLen is len(appendCanonical(nil, n)) without building it: key
// order does not change the length. It does not allocate (but for a number
// literal beyond the float64 range, which strconv reports with an allocated
// error and the schema check refuses).
func canonicalLen(n *node) int {
	switch n.kind {
	case kObject:
		l := 2 + max(len(n.obj)-1, 0) // braces and commas
		for _, m := range n.obj {
			l += canonjson.StringLen(m.key) + 1 + canonicalLen(m.val)
		}
		return l
	case kArray:
		l := 2 + max(len(n.arr)-1, 0)
		for _, v := range n.arr {
			l += canonicalLen(v)
		}
		return l
	case kString:
		return canonjson.StringLen(n.str)
	case kNumber:
		var buf [32]byte // the longest ECMAScript number is 24 bytes
		return len(appendNumber(buf[:0], n.str))
	case kBool:
		if n.b {
			return 4
		}
		return 5
	}
	return 4
}

// appendJSONString appends s with JSON.stringify escaping. Strings of the
// parsed tree are valid UTF-8: the parser already replaced a bad byte or a
// lone surrogate with U+FFFD and flagged it (node.bad, member.keyBad), which
// the checks report; so validity is not asked again here.
func appendJSONString(dst []byte, s string) []byte {
	dst, _ = canonjson.AppendString(dst, s)
	return dst
}

// appendNumber appends the JSON number literal lit as ECMAScript's
// Number.prototype.toString writes its float64 value (as JSON.parse reads
// it: an integer beyond 2^53 is rounded). A literal outside the float64
// range is kept as written (the schema check refuses it).
func appendNumber(dst []byte, lit string) []byte {
	if f, err := strconv.ParseFloat(lit, 64); err == nil {
		if out, err := canonjson.AppendNumber(dst, f); err == nil {
			return out
		}
	}
	return append(dst, lit...)
}
