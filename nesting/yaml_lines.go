package nesting

// The YAML measure's walk over lines: the main loop, line breaks, document
// markers, the indentation that starts a line, and tabs.

// newline moves past a line break (CR LF is one) to the next line.
func (s *yamlScan) newline() {
	if s.src[s.i] == '\r' && s.i+1 < len(s.src) && s.src[s.i+1] == '\n' {
		s.i++
	}
	s.i++
	s.prev = '\n'
	s.col, s.first, s.indentNum, s.stateUp = 1, true, 0, false
	s.anchor, s.directive = false, false
}
func (s *yamlScan) run() {
	for s.i < len(s.src) && s.over == nil {
		c := s.src[s.i]
		if isBreak(c) {
			s.lineBreak()
			continue
		}
		if s.first {
			if c == ' ' {
				if !s.ml {
					s.indentNum++
				}
				s.step()
				continue
			}
			if c == '\t' {
				if s.ml {
					s.step()
				} else {
					s.tab()
				}
				continue
			}
			s.lineStart()
			if s.ml {
				s.skipLine()
				continue
			}
		}
		if !s.token(c) {
			return
		}
	}
}

// lineBreak handles a line break outside quoted text (scanNewLine).
func (s *yamlScan) lineBreak() {
	if !s.ml {
		if s.buf && s.savedCol == 0 {
			s.savedCol = s.col - s.bufTrim
		}
		if s.buf {
			s.bufLen = s.bufTrim + 1
		}
		if s.anchor || s.directive {
			s.flush()
		}
	}
	s.newline()
	s.quoteLine = false
	if s.ml && s.docMarker() {
		s.ml = false
		s.lastTok = tokOther
	}
}

// docMarker reports whether the text at s.i starts with --- or ... as a
// whole marker (foundDocumentSeparatorMarker).
func (s *yamlScan) docMarker() bool {
	rest := s.src[s.i:]
	if len(rest) < 3 {
		return false
	}
	m := string(rest[:3])
	if m != "---" && m != "..." {
		return false
	}
	return len(rest) == 3 || isBlank(rest[3]) || isBreak(rest[3])
}

// lineStart is the first token character of a line: goccy's indent state
// decides whether pending text or a block scalar ends here.
func (s *yamlScan) lineStart() {
	s.first = false
	down, up := false, false
	if s.lastDelim != 0 {
		if s.lastDelim < s.col {
			up = true
		} else {
			down = true
		}
	}
	s.stateUp = up
	if down {
		if s.ml {
			s.ml = false
			s.lastTok = tokOther
		}
		s.flush()
	}
	if s.ml {
		if s.mlFirst == 0 {
			s.mlFirst = s.col
		}
		s.lastDelim = s.mlFirst - 1
		return
	}
	if s.quoteLine {
		// The first token after a quoted scalar that spanned lines: the
		// tokenizer checks its indent, but it is no new line of structure.
		return
	}
	s.lineCol, s.lineStartI = s.col, s.i
	// A ':' first on a line may make the value before it a key, inside the
	// collections that value sits in, and an anchor or a tag belongs to the
	// token after it: open pops for those, from the column that counts.
	if c := s.src[s.i]; !s.inFlow() && !s.topPending() && c != ':' && c != '&' && c != '!' {
		s.popDeeper(s.col)
	}
}

// skipLine moves to the end of the line (block scalar content, comments).
func (s *yamlScan) skipLine() {
	for s.i < len(s.src) && !isBreak(s.src[s.i]) {
		s.step()
	}
}

// tab mirrors the tokenizer's tab rules outside quoted text: a tab it
// takes for indentation does not move its column.
func (s *yamlScan) tab() {
	if (s.buf && s.lastDelim == 0) || s.lastDelim < s.col {
		s.indentNum++
		s.prev = '\t'
		s.i++
		return
	}
	if s.buf {
		s.bufLen++
	}
	s.step()
}
