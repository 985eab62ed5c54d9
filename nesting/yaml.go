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
