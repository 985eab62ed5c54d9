package nesting

// The depth rules of the YAML measure: flow levels ({ and [) and block
// collections (a - or a key at a column), opened, closed by a lesser indent
// or a closing bracket, and what follows an indicator on its line.

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
