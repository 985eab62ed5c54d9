package consent

import "strings"

// SecretTemplate splits value into its literal text and the names of the
// references it holds, in order: literal[0] ref[0] literal[1] … ref[n-1]
// literal[n]. A {{secrets.NAME}} is named NAME; an {{env.VAR}} is named
// env.VAR (EnvBindingPrefix): a value of relavium's own environment sent
// as a secret is, read at connect and bound to the origin like one. ok is
// false when a "{{" or "}}" in value is not part of a whole reference (an
// odd name, a lone brace pair, {{env.VAR:-default}} — a default would be a
// literal credential written in the file — or {{secrets.env.…}}, whose
// name would read as the environment's): such a value would be sent
// literally, which is never what its author meant. A network server's
// header value ("Bearer {{secrets.linear}}") is read with it; an env value
// must be solely one reference (SecretRef).
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
		if strings.HasPrefix(name, EnvBindingPrefix) {
			isRef = false
		}
		if v, _, hasDef, envOK := EnvRef(rest[i : i+j+2]); !isRef && envOK && !hasDef {
			name, isRef = EnvBindingPrefix+v, true
		}
		if !isRef {
			return nil, nil, false
		}
		literals, refs = append(literals, rest[:i]), append(refs, name)
		rest = rest[i+j+2:]
	}
}
