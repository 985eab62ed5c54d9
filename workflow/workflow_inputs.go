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
		valid := true
		if nk, ok := m["name"]; !ok {
			p.add(item.pos, join(field, "name"), "an input needs a name")
			valid = false
		} else if s, ok := p.str(nk, join(field, "name")); ok {
			switch first, dup := seen[s]; {
			case !inputNamePattern.MatchString(s):
				p.add(nk.val.pos, join(field, "name"), "%q is not an input name: start with a letter or _, then letters, digits or _ (at most 64)", s)
				valid = false
			case s == ReservedInputName:
				p.add(nk.val.pos, join(field, "name"), "input name %q is reserved: the MCP tool relavium_<id> takes the confirmation round trip's value under it; rename the input", s)
				valid = false
			case dup:
				p.add(nk.val.pos, join(field, "name"), "input %q is already declared at %d:%d", s, first.Line, first.Col)
				valid = false
			default:
				seen[s] = nk.val.pos
				in.Name = s
			}
		} else {
			valid = false
		}
		if tk, ok := m["type"]; !ok {
			p.add(item.pos, join(field, "type"), "an input needs a type: %s", strings.Join(inputTypes[:], ", "))
			valid = false
		} else if s, ok := p.str(tk, join(field, "type")); ok {
			if !slices.Contains(inputTypes[:], s) {
				p.add(tk.val.pos, join(field, "type"), "%q is not an input type: use %s", s, strings.Join(inputTypes[:], ", "))
				valid = false
			}
			in.Type = s
		} else {
			valid = false
		}
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
