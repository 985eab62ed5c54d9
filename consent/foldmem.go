package consent

import (
	"strings"
	"unsafe"
)

// What a fold keeps in memory. The fold reads one line at a time; a line's
// text is copied into a shared chunk (textArena) and a grant's fields are
// substrings of it; the Grant and its slices share a box from a shared
// chunk (boxArena). A chunk stays alive while any live grant points into
// it, so the fold counts every chunk a live grant pins, in full, plus each
// live grant's own allocations, against maxLiveBytes: what it counts is
// what it holds, however the live grants are spread over the file. Shared
// chunks keep the fold to a few large allocations instead of several per
// line.

// textChunkSize is the size of one text chunk; a line longer than a
// quarter of it gets an allocation of its own.
const textChunkSize = 64 << 10

// chunk is one chunk's bookkeeping (a text chunk or a box chunk): its size
// and how many live grants point into it.
type chunk struct {
	size int
	live int
}

// textArena copies line text into chunks. A strings.Builder only ever
// appends, and each chunk is grown once to its full size, so a substring of
// what it built stays valid for good.
type textArena struct {
	b   strings.Builder
	cur *chunk
}

// add returns a copy of p as a string and the chunk that holds it.
func (t *textArena) add(p []byte) (string, *chunk) {
	if len(p) > textChunkSize/4 {
		return string(p), &chunk{size: len(p)}
	}
	if t.cur == nil || t.b.Len()+len(p) > textChunkSize {
		t.b = strings.Builder{}
		t.b.Grow(textChunkSize)
		t.cur = &chunk{size: textChunkSize}
	}
	off := t.b.Len()
	t.b.Write(p)
	return t.b.String()[off:], t.cur
}

// grantBox is a Grant with room for the slices of a typical grant; boxes
// come from chunks of boxChunk, so a typical grant costs no allocation of
// its own.
type grantBox struct {
	g    Grant
	strs [boxStrings]string
	kvs  [boxKinds]EnvKindOf
}

const (
	boxStrings = 8 // args and env names together
	boxKinds   = 4
	boxChunk   = 64
	mapEntry   = 64 // a map entry, roughly
)

// boxArena hands out grantBoxes from chunks; like text, a chunk lives while
// a live grant is in it, and the fold counts it in full.
type boxArena struct {
	boxes []grantBox
	cur   *chunk
}

// newGrant returns a Grant holding copies of args, names, headers and kinds (the
// decoder's may live in its per-line scratch), from a box when they fit,
// else with its own allocations (counted in own).
func (a *boxArena) newGrant(args, names, headers []string, kinds []EnvKindOf) *Grant {
	n := len(args) + len(names) + len(headers)
	var (
		g    *Grant
		strs []string
		kvs  []EnvKindOf
	)
	if n <= boxStrings && len(kinds) <= boxKinds {
		if len(a.boxes) == cap(a.boxes) {
			a.boxes = make([]grantBox, 0, boxChunk)
			a.cur = &chunk{size: boxChunk * int(unsafe.Sizeof(grantBox{}))}
		}
		a.boxes = a.boxes[:len(a.boxes)+1]
		b := &a.boxes[len(a.boxes)-1]
		g, strs, kvs = &b.g, b.strs[:n:n], b.kvs[:len(kinds):len(kinds)]
		g.box, g.own = a.cur, mapEntry
	} else {
		g, strs, kvs = &Grant{}, make([]string, n), make([]EnvKindOf, len(kinds))
		g.own = int(unsafe.Sizeof(*g)+uintptr(n)*unsafe.Sizeof("")+uintptr(len(kinds))*unsafe.Sizeof(EnvKindOf{})) + mapEntry
	}
	copy(strs, args)
	copy(strs[len(args):], names)
	copy(strs[len(args)+len(names):], headers)
	g.Args, g.EnvNames = strs[:len(args):len(args)], strs[len(args):len(args)+len(names):len(args)+len(names)]
	if headers != nil {
		g.Headers = strs[len(args)+len(names):]
	}
	if kinds != nil {
		copy(kvs, kinds)
		g.EnvKinds = kvs
	}
	return g
}

// pin counts g as live; unpin as no longer live.
func (f *folder) pin(g *Grant) {
	for _, c := range [2]*chunk{g.text, g.box} {
		if c != nil {
			if c.live == 0 {
				f.live += c.size
			}
			c.live++
		}
	}
	f.live += g.own
}

func (f *folder) unpin(g *Grant) {
	for _, c := range [2]*chunk{g.text, g.box} {
		if c != nil {
			c.live--
			if c.live == 0 {
				f.live -= c.size
			}
		}
	}
	f.live -= g.own
}
