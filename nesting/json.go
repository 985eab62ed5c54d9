package nesting

// JSON measures a JSON text: brackets outside strings nest, a string ends
// at its first unescaped quote. Keys, strings, literals and collections
// are nodes. Text that is not JSON is measured as far as it goes (the
// decoder refuses it before building anything).
func JSON(data []byte, lim Limits) (Stats, *Exceeded) {
	c := counter{lim: lim, src: data}
	depth := 0
	inLiteral := false // inside a number, true, false or null
	for i := 0; i < len(data); i++ {
		b := data[i]
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
