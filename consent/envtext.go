package consent

import "strings"

// EnvSpan is one {{env.VAR}} or {{env.VAR:-default}} inside a text: the
// bytes [Start, End) of the text, read by EnvRef.
type EnvSpan struct {
	Start, End int
	Name, Def  string
	HasDefault bool
}

// EnvRefsIn finds every {{env.…}} in text ("${HOME}/state" translated is
// "{{env.HOME}}/state"). ok is false when a "{{env." opens no reference
// EnvRef reads (unclosed, an odd name, a nested "{{"), so that text
// holding one is refused rather than passed on half-expanded. The digest
// holds the text as written; the host expands the spans at spawn with this
// same function.
func EnvRefsIn(text string) (spans []EnvSpan, ok bool) {
	const open, close = "{{env.", "}}"
	for at := 0; ; {
		i := strings.Index(text[at:], open)
		if i < 0 {
			return spans, true
		}
		start := at + i
		j := strings.Index(text[start+len(open):], close)
		if j < 0 {
			return nil, false
		}
		end := start + len(open) + j + len(close)
		name, def, hasDef, refOK := EnvRef(text[start:end])
		if !refOK {
			return nil, false
		}
		spans = append(spans, EnvSpan{Start: start, End: end, Name: name, Def: def, HasDefault: hasDef})
		at = end
	}
}
