package consent

import "strings"

// SecretTemplate splits value into its literal text and the NAMEs of the
// {{secrets.NAME}} references it holds, in order: literal[0] ref[0]
// literal[1] … ref[n-1] literal[n]. ok is false when a "{{" or "}}" in value
// is not part of a whole reference (an odd name, a lone brace pair): such a
// value would be sent literally, which is never what its author meant.
// A network server's header value ("Bearer {{secrets.linear}}") is read with
// it; an env value must be solely one reference (SecretRef).
func SecretTemplate(value string) (literals, refs []string, ok bool) {
	rest := value
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			if strings.Contains(rest, "}}") {
				return nil, nil, false
			}
			return append(literals, rest), refs, true
		}
		if strings.Contains(rest[:i], "}}") {
			return nil, nil, false
		}
		j := strings.Index(rest[i:], "}}")
		if j < 0 {
			return nil, nil, false
		}
		name, isRef := SecretRef(rest[i : i+j+2])
		if !isRef {
			return nil, nil, false
		}
		literals, refs = append(literals, rest[:i]), append(refs, name)
		rest = rest[i+j+2:]
	}
}
