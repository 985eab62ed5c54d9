package nesting

// TOML measures a TOML text. TOML nests in three ways, and each counts:
// a table header's dotted parts ([a.b.c] is three levels, [[a.b]] one more
// for the array of tables), a key's dotted parts (a.b.c = 1), and arrays
// and inline tables in values (each [ or { one level, plus the dotted parts
// of the keys inside an inline table). Strings (basic, literal, and their
// multi-line forms) and comments are skipped; TOML has no plain scalars,
// so this is exact for any text go-toml accepts.
func TOML(data []byte, lim Limits) (Stats, *Exceeded) {
	s := tomlScan{counter: counter{lim: lim, src: data}, table: 1, key: true, lineStart: true}
	if s.depth(1, 0) { // the document is a table
		s.run()
	}
	return s.stats, s.over
}

type tomlFrame struct {
	kind byte // '[' array, '{' inline table
	lv   int  // tables the dotted parts of its current key open
}

type tomlScan struct {
	counter
	i         int
	table     int  // levels of the current table (the document's own is 1)
	rootLv    int  // tables the current top-level key's dotted parts open
	sum       int  // levels of the open frames (each 1 + its key's tables)
	key       bool // reading a key (before its '=')
	parts     int  // dotted parts of the key being read
	lineStart bool // nothing but blanks yet on this line, at top level
	frames    []tomlFrame
}

func (s *tomlScan) level() int { return s.table + s.rootLv + s.sum }

// keyLv is the number of tables the dotted parts read so far open: a.b.c
// opens a and b.
func (s *tomlScan) keyLv() int { return max(s.parts-1, 0) }

// keyLevel is the depth of the table the key being read lands in.
func (s *tomlScan) keyLevel() int {
	if n := len(s.frames); n > 0 {
		return s.table + s.rootLv + s.sum - s.frames[n-1].lv + s.keyLv()
	}
	return s.table + s.keyLv()
}

func (s *tomlScan) run() {
	for s.i < len(s.src) && s.over == nil {
		c := s.src[s.i]
		switch {
		case c == '\n':
			s.i++
			if len(s.frames) == 0 {
				s.key, s.parts, s.lineStart = true, 0, true
			}
			continue
		case c == ' ' || c == '\t' || c == '\r':
			s.i++
			continue
		case c == '#':
			for s.i < len(s.src) && s.src[s.i] != '\n' {
				s.i++
			}
			continue
		case c == '"' || c == '\'':
			if !s.node() {
				return
			}
			s.skipString(c)
			if s.key && s.parts == 0 {
				s.parts = 1
			}
			s.lineStart = false
			continue
		}
		if s.lineStart && c == '[' {
			s.header()
			continue
		}
		s.lineStart = false
		if s.key {
			s.keyChar(c)
			continue
		}
		s.valueChar(c)
	}
}

func (s *tomlScan) node() bool { return s.counter.node(s.i) }

// keyChar reads one character of a key: a dot adds a level, '=' ends it.
func (s *tomlScan) keyChar(c byte) {
	switch c {
	case '.':
		s.parts++
		if !s.depth(s.keyLevel(), s.i) {
			return
		}
	case '=':
		if s.parts == 0 {
			s.parts = 1
		}
		if !s.node() || !s.depth(s.keyLevel(), s.i) {
			return
		}
		if n := len(s.frames); n > 0 {
			f := &s.frames[n-1]
			s.sum += s.keyLv() - f.lv
			f.lv = s.keyLv()
		} else {
			s.rootLv = s.keyLv()
		}
		s.key, s.parts = false, 0
	case '}':
		s.key = false
		s.valueChar(c)
		return
	default:
		if s.parts == 0 {
			s.parts = 1
		}
	}
	s.i++
}

// valueChar reads one character of a value.
func (s *tomlScan) valueChar(c byte) {
	switch c {
	case '[', '{':
		s.frames = append(s.frames, tomlFrame{kind: c})
		s.sum++
		if !s.node() || !s.depth(s.level(), s.i) {
			return
		}
		if c == '{' {
			s.key, s.parts = true, 0
		}
	case ']', '}':
		open := byte('[')
		if c == '}' {
			open = '{'
		}
		if n := len(s.frames); n > 0 && s.frames[n-1].kind == open {
			s.sum -= 1 + s.frames[n-1].lv
			s.frames = s.frames[:n-1]
		}
		s.key = false
	case ',':
		if !s.node() {
			return
		}
		if n := len(s.frames); n > 0 && s.frames[n-1].kind == '{' {
			s.key, s.parts = true, 0
		}
	}
	s.i++
}

// header reads a table header, [a.b] or [[a.b]], at the start of a line.
func (s *tomlScan) header() {
	s.lineStart = false
	levels := 2 // the document and the header's first part
	s.i++
	if s.i < len(s.src) && s.src[s.i] == '[' {
		levels++
		s.i++
	}
	if !s.node() {
		return
	}
	s.table, s.rootLv = 1, 0
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		c := s.src[s.i]
		switch c {
		case '"', '\'':
			s.skipString(c)
			continue
		case '.':
			levels++
			if !s.depth(levels, s.i) {
				return
			}
		case ']':
			for s.i < len(s.src) && s.src[s.i] == ']' {
				s.i++
			}
			s.table = levels
			s.depth(levels, s.i)
			s.key = false // only a comment may follow on this line
			return
		}
		s.i++
	}
	s.table = levels
}

// skipString moves past a string that starts at s.i with quote q, in its
// one-line or multi-line form.
func (s *tomlScan) skipString(q byte) {
	if s.i+2 < len(s.src) && s.src[s.i+1] == q && s.src[s.i+2] == q {
		s.i += 3
		for s.i < len(s.src) {
			switch {
			case q == '"' && s.src[s.i] == '\\':
				s.i += 2
			case s.src[s.i] == q && s.i+2 < len(s.src) && s.src[s.i+1] == q && s.src[s.i+2] == q:
				s.i += 3
				for s.i < len(s.src) && s.src[s.i] == q { // up to two quotes may end the content
					s.i++
				}
				return
			default:
				s.i++
			}
		}
		return
	}
	s.i++
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		switch {
		case q == '"' && s.src[s.i] == '\\':
			s.i += 2
			continue
		case s.src[s.i] == q:
			s.i++
			return
		}
		s.i++
	}
}
