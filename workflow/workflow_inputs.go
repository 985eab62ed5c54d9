package workflow

import (
	"slices"
	"strings"

	"github.com/relavium/relavium/authored"
)

func (p *wfParser) inputs(w *Workflow, k ykey) {
	if k.val.kind == yNull {
		return
	}
	if k.val.kind != ySeq {
		p.add(k.val.pos, "inputs", "must be a list of {name, type, …}, not %s", k.val.describe())
		return
	}
	seen := map[string]authored.Pos{}
	for i, item := range k.val.items {
		field := index("inputs", i)
		m, ok := p.fields(item, field, inputKeys, "an input")
		if !ok {
			continue
		}
		in := Input{Pos: item.pos}
		nameOK := p.inputName(&in, m, item, field, seen)
		typeOK := p.inputType(&in, m, item, field)
		valid := nameOK && typeOK
		if rk, ok := m["required"]; ok {
			in.Required, _ = p.boolean(rk, join(field, "required"))
		}
		if dk, ok := m["description"]; ok {
			in.Description, _ = p.str(dk, join(field, "description"))
		}
		if ek, ok := m["enum"]; ok {
			if ek.val.kind != ySeq || len(ek.val.items) == 0 {
				p.add(ek.val.posOr(ek.pos), join(field, "enum"), "enum must be a non-empty list of allowed values")
				valid = false
			} else {
				for _, it := range ek.val.items {
					in.Enum = append(in.Enum, it.jsonValue())
				}
			}
		}
		if dk, ok := m["default"]; ok {
			if in.Required {
				p.add(dk.pos, join(field, "default"), "a required input cannot have a default: drop one of them")
				valid = false
			}
			in.Default, in.HasDefault = dk.val.jsonValue(), true
		}
		if valid {
			if key, msg := checkInputSchema(&in); msg != "" {
				pos := item.pos
				if k, ok := m[key]; ok {
					pos = k.val.posOr(k.pos)
				}
				p.add(pos, join(field, key), "%s", msg)
			}
		}
		if in.Name != "" {
			w.Inputs = append(w.Inputs, in)
		}
	}
}

// inputName reads an input's name into in: required, a valid and unreserved
// name, declared once (seen holds those declared so far).
func (p *wfParser) inputName(in *Input, m map[string]ykey, item *ynode, field string, seen map[string]authored.Pos) bool {
	nk, ok := m["name"]
	if !ok {
		p.add(item.pos, join(field, "name"), "an input needs a name")
		return false
	}
	s, ok := p.str(nk, join(field, "name"))
	if !ok {
		return false
	}
	switch first, dup := seen[s]; {
	case !inputNamePattern.MatchString(s):
		p.add(nk.val.pos, join(field, "name"), "%q is not an input name: start with a letter or _, then letters, digits or _ (at most 64)", s)
		return false
	case s == ReservedInputName:
		p.add(nk.val.pos, join(field, "name"), "input name %q is reserved: the MCP tool relavium_<id> takes the confirmation round trip's value under it; rename the input", s)
		return false
	case dup:
		p.add(nk.val.pos, join(field, "name"), "input %q is already declared at %d:%d", s, first.Line, first.Col)
		return false
	}
	seen[s] = nk.val.pos
	in.Name = s
	return true
}

// inputType reads an input's type into in: required, one of inputTypes (an
// unknown one is still recorded).
func (p *wfParser) inputType(in *Input, m map[string]ykey, item *ynode, field string) bool {
	tk, ok := m["type"]
	if !ok {
		p.add(item.pos, join(field, "type"), "an input needs a type: %s", strings.Join(inputTypes[:], ", "))
		return false
	}
	s, ok := p.str(tk, join(field, "type"))
	if !ok {
		return false
	}
	in.Type = s
	if !slices.Contains(inputTypes[:], s) {
		p.add(tk.val.pos, join(field, "type"), "%q is not an input type: use %s", s, strings.Join(inputTypes[:], ", "))
		return false
	}
	return true
}
