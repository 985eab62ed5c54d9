package discovery

import (
	"errors"
	"fmt"
	"strings"
)

// A tools/list page is read as a stream of tools: the page is scanned once
// without building anything (its syntax, its members, where its tools
// array is), then each tool's bytes are measured as they come and judged
// before any tree is built. A tool too large to ever fit the server's
// budget is refused unread; only the tools that pass are parsed, checked
// and compiled, a bounded batch at a time. So what a page costs is bounded
// by the caps, not by what the server sends: a 14 MiB tool is a scan, not a
// tree of millions of nodes.

// Per-tool bounds checked on the raw bytes, before a tree is built.
const (
	// maxToolBytes: a tool whose JSON as sent is larger than the server's
	// whole budget can never be admitted.
	maxToolBytes = MaxPayload
	// maxToolValues bounds the JSON values of one tool (every string,
	// number, object, ... it holds): what its tree would cost.
	maxToolValues = 1 << 16
	// batchBytes and batchTools bound one batch of tools built together.
	batchBytes = 2 << 20
	batchTools = 64
)

// pageScan is a scanned tools/list result.
type pageScan struct {
	data  []byte
	tools int // offset of the tools array's '['
	next  string
}

// scanPage reads {"tools":[...],"nextCursor":"..."}; unknown members
// (_meta, ttlMs, ...) are ignored, but a case variant of either member is
// refused (the SDK would read it as that member). The whole page is
// checked for syntax here, so a malformed page fails before any of its
// tools is judged.
func scanPage(raw []byte) (*pageScan, error) {
	ps := &pageScan{data: raw, tools: -1}
	end, _, err := scanValue(raw, 0)
	if err != nil {
		return nil, err
	}
	if skipWS(raw, end) != len(raw) {
		return nil, &syntaxError{off: end, msg: "data after the top-level value"}
	}
	if raw[skipWS(raw, 0)] != '{' {
		return nil, errNotObject
	}
	seen := map[string]bool{}
	var fail error
	_, err = objectMembers(raw, 0, func(klit, val []byte) bool {
		key, ok := pageKey(klit)
		if !ok {
			return true // too long to be either member, or a variant of one
		}
		if key != "tools" && key != "nextCursor" {
			if strings.EqualFold(key, "tools") || strings.EqualFold(key, "nextCursor") {
				fail = fmt.Errorf("the result has %s, a case variant of a tools/list member", show(key))
				return false
			}
			return true
		}
		if seen[key] {
			fail = fmt.Errorf("the result repeats %q", key)
			return false
		}
		seen[key] = true
		if key == "tools" {
			if val[0] == '[' {
				ps.tools = cap(raw) - cap(val) // val is a slice of raw
			}
			return true
		}
		switch val[0] {
		case 'n':
		case '"':
			if len(val) > 6*maxCursorBytes+2 {
				fail = fmt.Errorf("nextCursor is not valid UTF-8 or is over %d bytes", maxCursorBytes)
				return false
			}
			s, bad, err := decodeString(val)
			if err != nil || bad || len(s) > maxCursorBytes {
				fail = fmt.Errorf("nextCursor is not valid UTF-8 or is over %d bytes", maxCursorBytes)
				return false
			}
			ps.next = s
		default:
			fail = errors.New("nextCursor is not a string")
			return false
		}
		return true
	})
	if err == nil {
		err = fail
	}
	if err != nil {
		return nil, err
	}
	if ps.tools < 0 {
		return nil, errors.New(`"tools" is missing or not an array`)
	}
	return ps, nil
}

// pageKey decodes a top-level member name. Only a short one can be, or be
// a case variant of, "tools" or "nextCursor" (a folding character is at
// most 3 bytes of UTF-8, 12 as escapes); longer ones are not decoded.
func pageKey(lit []byte) (string, bool) {
	if len(lit) > 2+12*len("nextCursor") {
		return "", false
	}
	s, _, err := decodeString(lit)
	return s, err == nil
}

// rawTool is one entry of the tools array as sent, with its measure.
type rawTool struct {
	data []byte
	st   scanStats
}

// eachTool calls fn with each entry of the page's tools array, in order,
// until fn returns false.
func (ps *pageScan) eachTool(fn func(rawTool) bool) error {
	d := ps.data
	i := skipWS(d, ps.tools+1)
	if i < len(d) && d[i] == ']' {
		return nil
	}
	for {
		end, st, err := scanValue(d, i)
		if err != nil {
			return err
		}
		if !fn(rawTool{data: d[i:end], st: st}) {
			return nil
		}
		i = skipWS(d, end)
		if i >= len(d) {
			return &syntaxError{off: i, msg: "unterminated array"}
		}
		if d[i] == ']' {
			return nil
		}
		i = skipWS(d, i+1) // ','
	}
}

// prejudge refuses a tool on its raw measure, before it is built: not an
// object, larger than the server's whole budget as sent, or holding more
// values than a tool's tree may cost. nil means: build and check it.
func (rt rawTool) prejudge(index int) *skip {
	switch {
	case rt.data[0] != '{':
		return skipf(ReasonInvalidTool, "tools[%d] is not an object", index)
	case len(rt.data) > maxToolBytes:
		return skipf(ReasonToolTooLarge, "the tool is %d bytes as sent, over the server's whole %d-byte discovery budget; refused unread", len(rt.data), maxToolBytes)
	case rt.st.values > maxToolValues:
		return skipf(ReasonToolTooLarge, "the tool holds more than %d JSON values; refused unread", maxToolValues)
	}
	return nil
}

// name returns what a refused, unbuilt tool is called: its display-safe
// name (or "#index") and, when the name is valid, the raw name the
// duplicate-name rule counts. Only the tool object's own members are read.
func (rt rawTool) name(index int) (display, key string) {
	display = fmt.Sprintf("#%d", index)
	if rt.data[0] != '{' {
		return display, ""
	}
	_, _ = objectMembers(rt.data, 0, func(klit, val []byte) bool {
		if k, ok := pageKey(klit); !ok || k != "name" {
			return true
		}
		// A name longer than this is shown by its index only.
		if val[0] == '"' && len(val) <= 64<<10 {
			if s, bad, err := decodeString(val); err == nil {
				display = displayName(s)
				if !bad && checkName(s) == nil {
					key = s
				}
			}
		}
		return false
	})
	return display, key
}
