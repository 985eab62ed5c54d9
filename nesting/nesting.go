package nesting

import (
	"fmt"
	"unicode/utf8"
)

// The caps relavium's readers use. A reader may pass its own Limits; these
// are the documented numbers.
const (
	// FileDepth bounds authored YAML and TOML files (agents, workflows,
	// config): the workflow language's 64 levels, counted as collections
	// (a top-level mapping is one).
	FileDepth = 64
	// FileNodes bounds the values of one authored file: far above any real
	// agent, workflow or config file, and low enough that the parser's tree
	// of an accepted file stays in tens of MiB.
	FileNodes = 20000
	// JSONDepth bounds JSON text a person types or relavium stores
	// (--args, run inputs, the TUI form, grant store lines): the same 256
	// levels discovery accepts in a server's schema.
	JSONDepth = 256
)

// Limits are the caps of one scan; a zero field is no cap.
type Limits struct {
	MaxDepth int
	MaxNodes int
}

// Stats is what a scan measured (up to where it stopped).
type Stats struct {
	Depth int // deepest nesting of collections seen
	Nodes int // values, keys and collections seen
}

// What names the cap an Exceeded passed.
const (
	WhatDepth = "depth"
	WhatNodes = "nodes"
)

// Exceeded says which cap a text passed and where.
type Exceeded struct {
	What   string // WhatDepth or WhatNodes
	Limit  int
	Offset int // byte offset of the character that passed the cap
	Line   int // 1-based
	Col    int // 1-based, in characters (runes)
}

// Error describes the refusal for a person.
func (e *Exceeded) Error() string {
	if e.What == WhatNodes {
		return fmt.Sprintf("more than %d values (line %d, column %d); the text is refused before it is parsed", e.Limit, e.Line, e.Col)
	}
	return fmt.Sprintf("nesting deeper than %d levels (line %d, column %d); the text is refused before it is parsed", e.Limit, e.Line, e.Col)
}

// Describe is the refusal without the position, for messages that print
// the position themselves.
func (e *Exceeded) Describe() string {
	if e.What == WhatNodes {
		return fmt.Sprintf("more than %d values", e.Limit)
	}
	return fmt.Sprintf("nesting deeper than %d levels", e.Limit)
}

// counter is the part every scan shares: the running figures and the caps.
type counter struct {
	lim   Limits
	stats Stats
	over  *Exceeded
	src   []byte
}

// depth records a nesting of d at offset off; false once a cap is passed.
func (c *counter) depth(d, off int) bool {
	if d > c.stats.Depth {
		c.stats.Depth = d
		if c.lim.MaxDepth > 0 && d > c.lim.MaxDepth {
			c.fail(WhatDepth, c.lim.MaxDepth, off)
			return false
		}
	}
	return true
}

// node records one value at offset off; false once a cap is passed.
func (c *counter) node(off int) bool {
	c.stats.Nodes++
	if c.lim.MaxNodes > 0 && c.stats.Nodes > c.lim.MaxNodes {
		c.fail(WhatNodes, c.lim.MaxNodes, off)
		return false
	}
	return true
}

func (c *counter) fail(what string, limit, off int) {
	if c.over != nil {
		return
	}
	line, col := LineCol(c.src, off)
	c.over = &Exceeded{What: what, Limit: limit, Offset: off, Line: line, Col: col}
}

// LineCol turns a byte offset into a 1-based line and a 1-based column in
// characters. A CR LF pair or a lone CR ends a line as LF does.
func LineCol(src []byte, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		switch src[i] {
		case '\n':
			line, start = line+1, i+1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			line, start = line+1, i+1
		}
	}
	return line, utf8.RuneCount(src[start:off]) + 1
}
