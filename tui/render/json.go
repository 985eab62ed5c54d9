package render

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/relavium/relavium/themes"
)

// maxColoredJSON is the size above which pretty JSON is shown without
// colour (colouring is per token; the view must stay fast on a 1 MiB blob).
const maxColoredJSON = 256 << 10

// PrettyJSON indents raw JSON keeping member order; ok is false when raw
// is not one JSON value.
func PrettyJSON(raw []byte) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || !json.Valid(raw) {
		return "", false
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return "", false
	}
	return b.String(), true
}

// LooksLikeJSON reports whether text is a JSON object or array (the only
// text results shown as JSON).
func LooksLikeJSON(text string) bool {
	t := strings.TrimSpace(text)
	return len(t) >= 2 && (t[0] == '{' && t[len(t)-1] == '}' || t[0] == '[' && t[len(t)-1] == ']') && json.Valid([]byte(t))
}

// JSONBlock is JSONLines wrapped to w cells, a long line continuing under
// its own indentation (nothing is cut).
func JSONBlock(st *themes.Styles, raw []byte, w int) []string {
	lines := JSONLines(st, raw)
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if Width(l) <= w {
			out = append(out, l)
			continue
		}
		plain := StripANSI(l)
		indent := strings.Repeat(" ", min(len(plain)-len(strings.TrimLeft(plain, " "))+2, w/2))
		out = append(out, WrapIndent(l, w, indent)...)
	}
	return out
}

// JSONLines renders raw JSON pretty and coloured, one display line per
// entry, every line sanitized (a JSON string may hold raw bidi or C1
// characters).
func JSONLines(st *themes.Styles, raw []byte) []string {
	pretty, ok := PrettyJSON(raw)
	if !ok {
		return strings.Split(ServerText(string(raw)), "\n")
	}
	lines := strings.Split(pretty, "\n")
	color := len(pretty) <= maxColoredJSON
	for i, l := range lines {
		l = ServerLine(l)
		if color {
			l = colorJSONLine(st, l)
		}
		lines[i] = l
	}
	return lines
}

// colorJSONLine colours one line of indented JSON: keys, strings, numbers,
// literals and punctuation.
func colorJSONLine(st *themes.Styles, line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ':
			j := i
			for j < len(line) && line[j] == ' ' {
				j++
			}
			b.WriteString(line[i:j])
			i = j
		case c == '"':
			j := i + 1
			for j < len(line) {
				if line[j] == '\\' {
					j += 2
					continue
				}
				if line[j] == '"' {
					j++
					break
				}
				j++
			}
			j = min(j, len(line))
			k := j
			for k < len(line) && line[k] == ' ' {
				k++
			}
			if k < len(line) && line[k] == ':' {
				b.WriteString(st.JSONKey.Render(line[i:j]))
			} else {
				b.WriteString(st.JSONString.Render(line[i:j]))
			}
			i = j
		case c == '-' || c >= '0' && c <= '9':
			j := i
			for j < len(line) && strings.IndexByte("+-0123456789.eE", line[j]) >= 0 {
				j++
			}
			b.WriteString(st.JSONNumber.Render(line[i:j]))
			i = j
		case c == 't' || c == 'f' || c == 'n':
			j := i
			for j < len(line) && line[j] >= 'a' && line[j] <= 'z' {
				j++
			}
			b.WriteString(st.JSONLiteral.Render(line[i:j]))
			i = j
		default:
			b.WriteString(st.JSONPunct.Render(line[i : i+1]))
			i++
		}
	}
	return b.String()
}
