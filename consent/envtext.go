package consent

import "strings"

// Span is one reference inside a text: {{env.VAR}}, {{env.VAR:-default}}
// (Name, Def, HasDefault, read by EnvRef) or {{secrets.NAME}} (Secret,
// read by SecretRef), at the bytes [Start, End) of the text.
type Span struct {
	Start, End int
	Name, Def  string
	HasDefault bool
	Secret     string
}

// RefsIn finds every {{env.…}} and {{secrets.…}} in text ("${HOME}/state"
// translated is "{{env.HOME}}/state"). ok is false when a "{{env." or
// "{{secrets." opens no reference EnvRef or SecretRef reads (unclosed, an
// odd name, a nested "{{"), so that text holding one is refused rather than
// passed on half-expanded. The digest holds the text as written; the host
// expands the spans at spawn with this same function, in one pass (a
// value read from the environment or a store is never read again for
// references).
func RefsIn(text string) (spans []Span, ok bool) {
	const envOpen, secretOpen, close = "{{env.", "{{secrets.", "}}"
	for at := 0; ; {
		ie, is := strings.Index(text[at:], envOpen), strings.Index(text[at:], secretOpen)
		i, open := ie, envOpen
		if ie < 0 || is >= 0 && is < ie {
			i, open = is, secretOpen
		}
		if i < 0 {
			return spans, true
		}
		start := at + i
		j := strings.Index(text[start+len(open):], close)
		if j < 0 {
			return nil, false
		}
		end := start + len(open) + j + len(close)
		if open == secretOpen {
			name, refOK := SecretRef(text[start:end])
			if !refOK {
				return nil, false
			}
			spans = append(spans, Span{Start: start, End: end, Secret: name})
			at = end
			continue
		}
		name, def, hasDef, refOK := EnvRef(text[start:end])
		if !refOK {
			return nil, false
		}
		spans = append(spans, Span{Start: start, End: end, Name: name, Def: def, HasDefault: hasDef})
		at = end
	}
}
