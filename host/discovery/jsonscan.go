package discovery

// A scanner that reads JSON text without building it. It checks the same
// RFC 8259 grammar as parser (strings, escapes, numbers, literals, bracket
// balance) iteratively, so no nesting can exhaust the stack, and it
// measures what it passes: the deepest nesting and how many values a
// value holds. The streamed page reader (pagestream.go) uses it to judge a
// tool by its size and shape before anything of it is built, and the
// stdio capture (framecapture.go) uses it to find the members of a
// JSON-RPC message.

// scanStats measures one scanned value.
type scanStats struct {
	depth  int // deepest container nesting (0 for a scalar)
	values int // every value, containers and members' values included
}

// scanValue scans the value starting at data[i] (after optional
// whitespace) and returns the offset just after it. It allocates only the
// bracket stack (one byte per open container).
func scanValue(data []byte, i int) (int, scanStats, error) {
	var st scanStats
	var stack []byte
	i = skipWS(data, i)
	for {
		// A value starts at i.
		if i >= len(data) {
			return i, st, &syntaxError{off: i, msg: "unexpected end of input"}
		}
		st.values++
		switch c := data[i]; {
		case c == '{' || c == '[':
			stack = append(stack, c)
			st.depth = max(st.depth, len(stack))
			i = skipWS(data, i+1)
			close := byte('}')
			if c == '[' {
				close = ']'
			}
			if i < len(data) && data[i] == close {
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				var err error
				if i, err = scanKey(data, i); err != nil {
					return i, st, err
				}
			}
			continue
		default:
			var err error
			if i, err = scanScalar(data, i); err != nil {
				return i, st, err
			}
		}
		var done bool
		var err error
		if i, done, err = closeContainers(data, i, &stack); done || err != nil {
			return i, st, err
		}
	}
}

// scanScalar scans the string, literal or number starting at data[i] and
// returns the offset just after it.
func scanScalar(data []byte, i int) (int, error) {
	switch c := data[i]; {
	case c == '"':
		return scanString(data, i)
	case c == 't' || c == 'f' || c == 'n':
		for _, w := range [...]string{"true", "false", "null"} {
			if w[0] == c {
				if !hasWord(data, i, w) {
					return i, &syntaxError{off: i, msg: "invalid literal"}
				}
				return i + len(w), nil
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		end, ok := scanNumber(data, i)
		if !ok {
			return end, &syntaxError{off: end, msg: "invalid number"}
		}
		return end, nil
	}
	return i, &syntaxError{off: i, msg: "unexpected character"}
}

// closeContainers runs after a value ended at i: it closes containers until
// one continues with another member (i is then where that value starts) or
// none is left (done).
func closeContainers(data []byte, i int, stack *[]byte) (_ int, done bool, err error) {
	for {
		if len(*stack) == 0 {
			return i, true, nil
		}
		i = skipWS(data, i)
		if i >= len(data) {
			return i, false, &syntaxError{off: i, msg: "unterminated container"}
		}
		top := (*stack)[len(*stack)-1]
		c := data[i]
		if c == ',' {
			i = skipWS(data, i+1)
			if top == '{' {
				i, err = scanKey(data, i)
			}
			return i, false, err
		}
		if top == '{' && c == '}' || top == '[' && c == ']' {
			*stack = (*stack)[:len(*stack)-1]
			i++
			continue
		}
		return i, false, &syntaxError{off: i, msg: "expected ',' or a closing bracket"}
	}
}

// scanKey scans `"key" :` at i and returns the offset of the member's value.
func scanKey(data []byte, i int) (int, error) {
	if i >= len(data) || data[i] != '"' {
		return i, &syntaxError{off: i, msg: "expected an object key"}
	}
	i, err := scanString(data, i)
	if err != nil {
		return i, err
	}
	i = skipWS(data, i)
	if i >= len(data) || data[i] != ':' {
		return i, &syntaxError{off: i, msg: "expected ':' after an object key"}
	}
	return skipWS(data, i+1), nil
}

// scanString scans the string literal at data[i] (its opening quote) and
// returns the offset after its closing quote. Invalid UTF-8 and lone
// surrogates are not syntax errors (the parser flags them); a control
// character or a bad escape is.
func scanString(data []byte, i int) (int, error) {
	i++
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			return i + 1, nil
		case c < 0x20:
			return i, &syntaxError{off: i, msg: "control character in a string"}
		case c == '\\':
			if i+1 >= len(data) {
				return i, &syntaxError{off: i, msg: "unterminated escape"}
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(data) || !isHex(data[i+2]) || !isHex(data[i+3]) || !isHex(data[i+4]) || !isHex(data[i+5]) {
					return i, &syntaxError{off: i, msg: "invalid \\u escape"}
				}
				i += 6
			default:
				return i, &syntaxError{off: i, msg: "invalid escape"}
			}
		default:
			i++
		}
	}
	return i, &syntaxError{off: i, msg: "unterminated string"}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// scanNumber scans a number literal (the parser's grammar).
func scanNumber(d []byte, i int) (int, bool) {
	if d[i] == '-' {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > start
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		digits()
	default:
		return i, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			return i, false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			return i, false
		}
	}
	return i, true
}

func hasWord(data []byte, i int, w string) bool {
	return len(data)-i >= len(w) && string(data[i:i+len(w)]) == w
}

func skipWS(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// objectMembers calls fn for each member of the object at data[i] with the
// raw key literal (quotes included) and the value's span, until fn returns
// false, and returns the offset after the object. Nothing is built: each
// value is checked and skipped with scanValue.
func objectMembers(data []byte, i int, fn func(key []byte, val []byte) bool) (int, error) {
	i = skipWS(data, i)
	if i >= len(data) || data[i] != '{' {
		return i, errNotObject
	}
	i = skipWS(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1, nil
	}
	for {
		ks := i
		ke, err := scanString(data, i)
		if err != nil {
			return ke, err
		}
		vs, err := scanKey(data, ks)
		if err != nil {
			return vs, err
		}
		ve, _, err := scanValue(data, vs)
		if err != nil {
			return ve, err
		}
		if !fn(data[ks:ke], data[vs:ve]) {
			return ve, nil
		}
		i = skipWS(data, ve)
		if i >= len(data) {
			return i, &syntaxError{off: i, msg: "unterminated object"}
		}
		switch data[i] {
		case ',':
			i = skipWS(data, i+1)
		case '}':
			return i + 1, nil
		default:
			return i, &syntaxError{off: i, msg: "expected ',' or '}' in an object"}
		}
	}
}

// decodeString decodes a string literal (quotes included) with the
// parser's rules: bad reports invalid UTF-8 or a lone surrogate.
func decodeString(lit []byte) (s string, bad bool, err error) {
	p := &parser{data: lit}
	s, bad, err = p.str()
	if err == nil && p.i != len(lit) {
		err = p.fail("data after the string")
	}
	return s, bad, err
}
