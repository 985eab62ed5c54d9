package nesting

// The YAML measure's tokens: one character at a time outside quotes and
// block scalar content (one flat switch on the character), and the readers of
// the multi-character forms (quoted text, tags, block scalar headers).

// token handles one character outside quoted text, comments and block
// scalar content. It returns false once a cap is passed.
func (s *yamlScan) token(c byte) bool {
	nc := s.nextByte()
	switch c {
	case ' ':
		if s.anchor || s.directive {
			s.flush()
			s.anchor = false
		} else {
			s.plain(' ')
		}
		s.step()
		return true
	case '\t':
		s.tab()
		return true
	case '{':
		if !s.buf || s.flowMode() {
			s.flush()
			s.flowMap++
			s.lastTok = tokOther
			if !s.node(s.i) || !s.pushFlow('{') {
				return false
			}
			s.step()
			return true
		}
	case '}':
		if s.flowMap > 0 {
			s.flush()
			s.flowMap--
			s.lastTok = tokOther
			s.popPairs()
			s.popFlow('{')
			s.step()
			return true
		}
	case '[':
		if !s.buf || s.flowMode() {
			s.flush()
			s.flowSeq++
			s.lastTok = tokOther
			if !s.node(s.i) || !s.pushFlow('[') {
				return false
			}
			s.step()
			return true
		}
	case ']':
		if !s.buf || s.flowSeq > 0 {
			s.flush()
			s.flowSeq--
			s.lastTok = tokOther
			s.popPairs()
			s.popFlow('[')
			s.step()
			return true
		}
	case ',':
		if s.flowMode() {
			s.flush()
			s.lastTok, s.lastVal = tokOther, false
			s.popPairs()
			s.step()
			return true
		}
	case '.':
		if s.col == 1 && s.indentNum == 0 && s.repeat('.') == 3 {
			if !s.node(s.i) {
				return false
			}
			s.flush()
			s.ml = false
			s.stepN(3)
			return true
		}
	case '<':
		if s.mergeKey() {
			if !s.node(s.i) {
				return false
			}
			s.lastDelim = s.col
			s.buf, s.savedCol, s.bufLen, s.bufTrim = false, 0, 0, 0
			s.lastTok = tokOther
			s.lastVal, s.lastTokCol = true, s.col // the key of the ':' to come
			s.stepN(2)
			return true
		}
	case '-':
		if s.col == 1 && s.indentNum == 0 && s.repeat('-') == 3 && (s.i+3 >= len(s.src) || isBlank(s.src[s.i+3]) || isBreak(s.src[s.i+3])) {
			if !s.node(s.i) { // each document is a tree of its own
				return false
			}
			s.flush()
			s.lastTok = tokOther
			s.lastDelim, s.indentNum = 0, 0
			s.block, s.props = s.block[:0], 0
			s.stepN(3)
			return true
		}
		if s.buf && s.stateUp && s.i == s.lineStartI {
			// A - that starts a more indented line of plain text begins a
			// raw folded block scalar.
			s.ml, s.mlFirst = true, s.col
			s.step()
			if s.i < len(s.src) && !isBreak(s.src[s.i]) {
				s.lastDelim = s.mlFirst - 1
			}
			s.skipLine()
			return true
		}
		if !s.buf && (nc == 0 || isBlank(nc) || isBreak(nc)) {
			s.lastDelim = s.col
			s.lastTok, s.lastVal = tokOther, false
			if !s.node(s.i) || !s.open('s', s.col) {
				return false
			}
			s.markValue()
			s.step()
			return true
		}
	case ':':
		if s.mapValue(nc) {
			kc := s.col // no key: an empty one, here
			if s.lastVal {
				kc = s.lastTokCol // the value before becomes the key
			}
			switch {
			case s.buf:
				kc = s.bufCol
				if s.savedCol != 0 {
					kc = s.savedCol
				}
				s.lastDelim = kc
			case s.lastTok == tokQuote:
				kc = s.quoteCol
				s.lastDelim = kc
			}
			s.flush()
			s.lastTok, s.lastVal = tokMapValue, false
			if s.inFlow() {
				k := byte('p') // a pair in a sequence, or key: key: value
				if s.topFlow() == '{' {
					k = 'c' // the mapping's own entry
				}
				if len(s.flow) > 0 {
					if !s.pushFlow(k) {
						return false
					}
				}
			} else {
				if !s.open('m', kc) {
					return false
				}
				s.markValue()
			}
			s.step()
			return true
		}
	case '|', '>':
		if !s.buf {
			return s.blockScalarHeader()
		}
	case '!':
		if !s.buf && !s.directive {
			s.props++
			if !s.node(s.i) || !s.depth(s.depthNow(), s.i) {
				return false
			}
			s.tag()
			return true
		}
	case '%':
		if !s.buf && s.indentNum == 0 {
			if !s.node(s.i) {
				return false
			}
			s.flush()
			s.directive = true
			s.lastTok = tokOther
			s.step()
			return true
		}
	case '?':
		if !s.buf && isBlank(nc) {
			s.lastDelim = s.col
			s.lastTok, s.lastVal = tokOther, false
			if !s.node(s.i) || !s.open('m', s.col) {
				return false
			}
			s.step()
			return true
		}
	case '&', '*':
		if !s.buf {
			s.props++
			if !s.node(s.i) || !s.depth(s.depthNow(), s.i) {
				return false
			}
			s.flush()
			s.anchor = true
			s.lastTok = tokOther
			s.step()
			return true
		}
	case '#':
		if !s.buf || isBlank(s.prev) || isBreak(s.prev) {
			if !s.node(s.i) { // the tokenizer keeps every comment
				return false
			}
			s.flush()
			s.lastTok = tokOther
			s.skipLine()
			return true
		}
	case '\'', '"':
		if !s.buf {
			return s.quoted(c)
		}
	}
	if !s.plain(c) {
		return false
	}
	s.step()
	return true
}
func (s *yamlScan) stepN(n int) {
	for ; n > 0 && s.i < len(s.src); n-- {
		s.step()
	}
}

// repeat counts how many times c repeats from s.i (ctx.repeatNum).
func (s *yamlScan) repeat(c byte) int {
	n := 0
	for j := s.i; j < len(s.src) && s.src[j] == c; j++ {
		n++
	}
	return n
}

// mergeKey mirrors isMergeKey: exactly "<<", blanks, ':' then a space or
// a line break.
func (s *yamlScan) mergeKey() bool {
	if s.repeat('<') != 2 {
		return false
	}
	for j := s.i + 2; j < len(s.src); j++ {
		switch s.src[j] {
		case ' ':
			continue
		case ':':
			return j+1 < len(s.src) && (s.src[j+1] == ' ' || isBreak(s.src[j+1]))
		}
		return false
	}
	return false
}

// mapValue mirrors scanMapDelim's test for a ':' that is a mapping value.
func (s *yamlScan) mapValue(nc byte) bool {
	if s.directive || s.anchor {
		return false
	}
	if s.flowMap <= 0 && nc != ' ' && nc != '\t' && !isBreak(nc) && s.i+1 < len(s.src) {
		return false
	}
	if s.flowMap > 0 && nc == '/' {
		return false
	}
	if s.flowMap > 0 && s.lastTok == tokMapValue {
		return false
	}
	return true
}

// blockScalarHeader handles | or > (scanMultiLineHeader): the rest of the
// line is the header; content follows on the next lines.
func (s *yamlScan) blockScalarHeader() bool {
	s.lastVal, s.lastTokCol = true, s.col
	if s.col == 1 {
		s.lastDelim = 1
	}
	if !s.node(s.i) {
		return false
	}
	start := s.i + 1
	s.step()
	s.skipLine()
	opt := s.src[start:s.i]
	for j, b := range opt {
		if b == '#' && j > 0 {
			opt = opt[:j]
			break
		}
	}
	indent := 0
	for _, b := range opt {
		if b >= '1' && b <= '9' {
			indent = int(b - '0')
		}
	}
	s.ml, s.mlFirst = true, 0
	if indent > 0 {
		s.mlFirst = s.lastDelim + indent
	}
	s.lastTok = tokOther
	return true
}

// tag skips a tag (scanTag): up to a space (consumed), a line break, or a
// ',' inside a flow collection. The tokenizer's column lags one behind.
func (s *yamlScan) tag() {
	s.flush()
	s.lastTok = tokOther
	startCol := s.col
	runes := 0
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == ' ':
			runes++
			s.step()
			s.col = startCol + runes - 1
			return
		case isBreak(c), c == ',' && s.flowMode():
			s.col = startCol + runes - 1
			return
		}
		runes++
		s.step()
	}
}

// quoted skips a quoted scalar by goccy's rules; it returns false once a
// cap is passed.
func (s *yamlScan) quoted(q byte) bool {
	s.flush()
	s.quoteCol = s.col
	s.lastVal, s.lastTokCol = true, s.col
	if !s.node(s.i) {
		return false
	}
	s.step()
	lag := 0 // characters the tokenizer skips after the quote (tab quirk)
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case isBreak(c):
			s.newline()
			s.quoteLine = true
			continue
		case q == '\'' && c == '\'':
			if s.i+1 < len(s.src) && s.src[s.i+1] == '\'' {
				s.stepN(2)
				continue
			}
			s.step()
			s.endQuote(lag)
			return true
		case q == '"' && c == '"':
			s.step()
			s.endQuote(lag)
			return true
		case q == '"' && c == '\\':
			s.escape()
			continue
		case q == '"' && c == '\t' && s.tabQuirk():
			lag++
		}
		s.step()
	}
	return true
}

// tabQuirk reports whether goccy's double-quote scanner moves one extra
// character for the tab at s.i: a non-blank follows on the line and the
// next character is not the closing quote.
func (s *yamlScan) tabQuirk() bool {
	found := false
	for j := s.i + 1; j < len(s.src) && !isBreak(s.src[j]); j++ {
		if !isBlank(s.src[j]) {
			found = true
			break
		}
	}
	return found && s.i+1 < len(s.src) && s.src[s.i+1] != '"'
}
func (s *yamlScan) endQuote(lag int) {
	s.lastTok = tokQuote
	// The tokenizer resumes lag characters further on, without looking at
	// them (line breaks included).
	for ; lag > 0 && s.i < len(s.src); lag-- {
		s.step()
	}
}

// escape moves past a backslash escape inside a double-quoted scalar.
func (s *yamlScan) escape() {
	if s.i+1 >= len(s.src) {
		s.step()
		return
	}
	switch s.src[s.i+1] {
	case '\n', '\r':
		s.i++
		s.newline()
		s.quoteLine = true
		return
	case 'x':
		if s.i+3 < len(s.src) {
			s.stepN(4)
			return
		}
	case 'u':
		if s.i+11 < len(s.src) && s.src[s.i+6] == '\\' && s.src[s.i+7] == 'u' {
			s.stepN(12)
			return
		}
		s.stepN(6)
		return
	case 'U':
		s.stepN(10)
		return
	}
	s.stepN(2)
}
