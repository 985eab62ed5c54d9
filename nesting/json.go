package nesting

// JSON measures a JSON text: brackets outside strings nest, a string ends
// at its first unescaped quote. Keys, strings, literals and collections
// are nodes. Text that is not JSON is measured as far as it goes (the
// decoder refuses it before building anything).
func JSON(data []byte, lim Limits) (Stats, *Exceeded) { return scanJSON(data, lim, false) }

// JSONC measures a JSON text with the comments VS Code's files allow (//
// to the end of the line, /* to */), outside strings: a comment is neither
// a node nor nesting, so brackets written in one never count (a comment
// marker inside a string is string text). An unterminated block comment
// runs to the end (the parser refuses it).
func JSONC(data []byte, lim Limits) (Stats, *Exceeded) { return scanJSON(data, lim, true) }

func scanJSON(data []byte, lim Limits, comments bool) (Stats, *Exceeded) {
	c := counter{lim: lim, src: data}
	depth := 0
	inLiteral := false // inside a number, true, false or null
	for i := 0; i < len(data); i++ {
		b := data[i]
		if comments && b == '/' && i+1 < len(data) && (data[i+1] == '/' || data[i+1] == '*') {
			inLiteral = false
			i = skipComment(data, i)
			continue
		}
		switch b {
		case '"':
			inLiteral = false
			if !c.node(i) {
				return c.stats, c.over
			}
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			inLiteral = false
			depth++
			if !c.depth(depth, i) || !c.node(i) {
				return c.stats, c.over
			}
		case ']', '}':
			inLiteral = false
			if depth > 0 {
				depth--
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			inLiteral = false
		default:
			if !inLiteral {
				inLiteral = true
				if !c.node(i) {
					return c.stats, c.over
				}
			}
		}
	}
	return c.stats, c.over
}

// skipComment returns the offset of the comment's last byte: the one before
// the line break of a // comment (CR, LF), the / of */, or the end.
func skipComment(data []byte, i int) int {
	if data[i+1] == '/' {
		for i += 2; i < len(data) && data[i] != '\n' && data[i] != '\r'; i++ {
		}
		return i - 1
	}
	for i += 2; i+1 < len(data); i++ {
		if data[i] == '*' && data[i+1] == '/' {
			return i + 1
		}
	}
	return len(data) - 1
}
