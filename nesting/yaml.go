package nesting

import "unicode/utf8"

// YAML measures a YAML text the way goccy/go-yaml's tokenizer reads it:
// the same characters open a quoted scalar, a comment, a block scalar
// (| or >, and the raw folded form) or a flow collection, and the same
// column rules end a block scalar or a plain scalar that runs over several
// lines. Nesting is counted from that token stream without building
// anything:
//   - every [ and { that opens a flow collection is a level, and a key: in a
//     flow sequence one more (the single-pair mapping it makes);
//   - every block indicator (- , ? , key:) opens a block collection at its
//     column unless it continues the collection already open at that column
//     (a sibling); a line whose first token sits left of an open block
//     collection closes it. Compact forms (- - - a, - key: - b) therefore
//     count one level per indicator.
//
// Where the tokenizer's behaviour is ambiguous the count errs high: a flow
// collection is only closed by its own bracket, and block collections are
// never closed inside a flow collection.
func YAML(data []byte, lim Limits) (Stats, *Exceeded) {
	s := yamlScan{counter: counter{lim: lim, src: data}, col: 1, first: true}
	s.run()
	return s.stats, s.over
}

type blockEntry struct {
	col  int
	kind byte // 's' sequence, 'm' mapping
	// empty: the sequence's last - had nothing after it on its line; the
	// tokenizer's parser then takes a key at the same column as its value.
	empty bool
	// pending: the last - or key: had only an anchor or a tag after it;
	// the parser gives those to whatever comes next, at the same column
	// too, so nothing there is a sibling.
	pending bool
}

// Last token kinds, where goccy's tokenizer looks back at the last token.
const (
	tokOther = iota
	tokQuote
	tokMapValue
)

type yamlScan struct {
	counter
	i   int // byte offset of the next character
	col int // goccy's column of the next character

	// goccy's tokenizer state, mirrored.
	first     bool // no token character on this line yet (isFirstCharAtLine)
	indentNum int  // goccy's indentNum: leading spaces and the tabs it skips
	buf       bool // plain text pending (existsBuffer)
	bufCol    int  // column where the pending text starts
	bufLen    int  // characters of the pending text
	bufTrim   int  // characters of the pending text up to its last non-blank
	savedCol  int  // column goccy gives pending text that spans lines (0: none)
	lastTok   int
	quoteCol  int // column of the last quoted scalar
	// lastVal: the last token was a value (plain or quoted scalar, block
	// scalar, a whole flow collection), starting at lastTokCol; a ':' with
	// no key of its own makes that value the key.
	lastVal    bool
	lastTokCol int
	flowCol    int // column of the outermost open flow collection
	lastDelim  int // lastDelimColumn
	flowSeq    int // startedFlowSequenceNum (may go negative, as goccy's does)
	flowMap    int // startedFlowMapNum
	anchor     bool
	directive  bool
	stateUp    bool // the current line's first character was indented Up
	lineCol    int  // column of the current line's first token
	lineStartI int  // byte offset of the current line's first token
	quoteLine  bool // this line began inside a quoted scalar
	prev       byte // previous byte, for the comment rule

	ml      bool // inside a block scalar (literal, folded or raw folded)
	mlFirst int  // its content column, 0 until known

	// flow holds the open flow levels: '[' and '{', 'p' for a mapping a ':'
	// opens inside them (a pair in a sequence, a value that is itself
	// key: value), and 'c' for the ':' of a flow mapping's own entry (no
	// level). flowDepth counts all but the 'c's.
	flow      []byte
	flowDepth int
	// props counts the anchors, aliases and tags of this document: the
	// parser hands an anchor or a tag to whatever node comes next, wherever
	// that is, and reads an alias much the same way, so each counts as one
	// more level for the rest of the document (agent and workflow files
	// have no use for them: aliases and tags are refused there).
	props int
	block []blockEntry
}

func (s *yamlScan) depthNow() int { return s.flowDepth + len(s.block) + s.props }

func (s *yamlScan) flowMode() bool { return s.flowSeq > 0 || s.flowMap > 0 }

func (s *yamlScan) inFlow() bool { return len(s.flow) > 0 || s.flowMode() }

// flush emits the pending plain text as a token (addBufferedTokenIfExists).
func (s *yamlScan) flush() {
	if s.buf {
		s.lastTok = tokOther
		s.lastVal, s.lastTokCol = true, s.bufCol
		if s.savedCol != 0 {
			s.lastTokCol = s.savedCol
		}
	}
	s.buf, s.savedCol, s.bufLen, s.bufTrim = false, 0, 0, 0
}

// plain adds a character to the pending plain text (ctx.addBuf: a blank
// never starts it).
func (s *yamlScan) plain(c byte) bool {
	if isBlank(c) {
		if s.buf {
			s.bufLen++
		}
		return true
	}
	if !s.buf {
		s.buf, s.bufCol, s.bufLen = true, s.col, 0
		if !s.node(s.i) {
			return false
		}
	}
	s.bufLen++
	s.bufTrim = s.bufLen
	return true
}

// nextByte is the byte after the current one, 0 at the end.
func (s *yamlScan) nextByte() byte {
	if s.i+1 < len(s.src) {
		return s.src[s.i+1]
	}
	return 0
}

// step moves past the current character (one rune, one column).
func (s *yamlScan) step() {
	c := s.src[s.i]
	s.prev = c
	if c < utf8.RuneSelf {
		s.i++
	} else {
		_, n := utf8.DecodeRune(s.src[s.i:])
		s.i += n
	}
	s.col++
}

func isBreak(c byte) bool { return c == '\n' || c == '\r' }

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

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

// pushFlow opens a flow level.
func (s *yamlScan) pushFlow(k byte) bool {
	if len(s.flow) == 0 {
		s.flowCol = s.col
	}
	s.lastVal = false
	s.flow = append(s.flow, k)
	if k != 'c' {
		s.flowDepth++
	}
	return s.depth(s.depthNow(), s.i)
}

// popPairs closes the mappings ':'s opened in the innermost flow level (at
// its ',' or closing bracket).
func (s *yamlScan) popPairs() {
	for s.popFlow('p') || s.popFlow('c') {
	}
}

func (s *yamlScan) topFlow() byte {
	if len(s.flow) == 0 {
		return 0
	}
	return s.flow[len(s.flow)-1]
}

func (s *yamlScan) popFlow(k byte) bool {
	if s.topFlow() == k {
		s.flow = s.flow[:len(s.flow)-1]
		if k != 'c' {
			s.flowDepth--
		}
		if len(s.flow) == 0 {
			s.lastVal, s.lastTokCol = true, s.flowCol
		}
		return true
	}
	return false
}

// open records a block indicator of kind at col: a sibling of the
// collection open at that column, or a new level.
func (s *yamlScan) open(kind byte, col int) bool {
	if s.inFlow() {
		// A block indicator inside a flow collection: goccy refuses most,
		// but count it as a level that lasts as long as the flow does.
		s.block = append(s.block, blockEntry{col: 0, kind: kind})
		return s.depth(s.depthNow(), s.i)
	}
	if s.topPending() {
		// The anchor or tag waiting on the collection open last goes to
		// this token, wherever it sits: a level inside it.
		s.block[len(s.block)-1].pending = false
		s.block = append(s.block, blockEntry{col: col, kind: kind})
		return s.depth(s.depthNow(), s.i)
	}
	s.popDeeper(col)
	if n := len(s.block); n > 0 && s.block[n-1].col == col {
		top := s.block[n-1]
		if top.kind == kind {
			return true
		}
		// key:\n- a\nnext: — the sequence at the key's column ends at the
		// next key of the mapping it belongs to.
		if top.kind == 's' && !top.empty && kind == 'm' && n > 1 && s.block[n-2].col == col && s.block[n-2].kind == 'm' {
			s.block = s.block[:n-1]
			return true
		}
	}
	s.block = append(s.block, blockEntry{col: col, kind: kind})
	return s.depth(s.depthNow(), s.i)
}

func (s *yamlScan) topPending() bool {
	return len(s.block) > 0 && s.block[len(s.block)-1].pending
}

// popDeeper closes the block collections opened right of col.
func (s *yamlScan) popDeeper(col int) {
	for n := len(s.block); n > 0 && s.block[n-1].col > col; n-- {
		s.block = s.block[:n-1]
	}
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

// markValue records on the block collection just opened or continued
// what follows its indicator at s.i on the line: nothing at all (empty,
// for a -), or only anchors and tags (pending).
func (s *yamlScan) markValue() {
	j, props := s.i+1, false
	for {
		for j < len(s.src) && isBlank(s.src[j]) {
			j++
		}
		if j < len(s.src) && (s.src[j] == '&' || s.src[j] == '!') {
			props = true
			for j < len(s.src) && !isBlank(s.src[j]) && !isBreak(s.src[j]) {
				j++
			}
			continue
		}
		break
	}
	nothing := j == len(s.src) || isBreak(s.src[j]) || (s.src[j] == '#' && isBlank(s.src[j-1]))
	top := &s.block[len(s.block)-1]
	top.empty = nothing && top.kind == 's'
	top.pending = nothing && props
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
