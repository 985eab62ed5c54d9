package discovery

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/fault"
)

// Validate checks call arguments against the tool's compiled input schema;
// the host calls it before every dispatch. Empty args mean {}. Arguments
// must be one JSON object the server cannot read differently from the
// validator: no repeated key, no invalid UTF-8 or lone surrogate, no
// nesting deeper than the parser builds (see malformedArg). A failure is
// an *Error (E588, or E589 for arguments that are not such an object)
// naming the JSON pointer of the offending value and the rule it breaks.
func (t *Tool) Validate(args json.RawMessage) error {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	root, err := parseJSON(args)
	if err != nil {
		return t.argErr(CodeMalformedArgs, "", "json", "the arguments are not JSON: "+err.Error())
	}
	if root.kind != kObject {
		return t.argErr(CodeMalformedArgs, "", "type", "the arguments must be a JSON object")
	}
	if p := malformedArg(root, ""); p != nil {
		return t.argErr(CodeMalformedArgs, p.ptr, p.rule, p.msg)
	}
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return t.argErr(CodeMalformedArgs, "", "json", "the arguments are not JSON: "+err.Error())
	}
	verr := t.input.Validate(v)
	if verr == nil {
		return nil
	}
	ptr, rule, msg := t.locate(v, verr)
	return t.argErr(CodeInvalidArgs, ptr, rule, msg)
}

// inexactNumber says why a number literal cannot be validated as the
// server will read it: the validator reads float64, so a value beyond its
// range, or an integer it cannot hold exactly (2^53+1), would be checked as
// another number than the one sent. "" when it can.
func inexactNumber(lit string) string {
	if _, err := strconv.ParseFloat(lit, 64); err != nil {
		return fmt.Sprintf("the number %s is beyond what a JSON number validator reads (float64)", show(lit))
	}
	if err := canonjson.CheckInteger(lit); err != nil {
		return err.Error() + ": the validator (float64) would check another value than the one sent"
	}
	return ""
}

func (t *Tool) argErr(code fault.Code, ptr, rule, msg string) error {
	name := t.Def.Name
	if name == "" {
		name = t.Def.Tool
	}
	return &Error{Base: fault.Base{ErrCode: code, Msg: fmt.Sprintf("arguments for %s: %s", name, msg)}, Server: t.Def.Server, Pointer: ptr, Rule: rule}
}

// argProblem is why arguments cannot be validated faithfully.
type argProblem struct{ ptr, rule, msg string }

// malformedArg finds the first place (depth first) where the server could
// read the arguments differently from the validator: an object that
// repeats a key (the server might read the other copy), a string or key
// holding invalid UTF-8 or a lone surrogate (the validator reads U+FFFD,
// the server gets the raw bytes), or nesting deeper than the parser builds
// (what lies below is not checked for either).
func malformedArg(n *node, ptr string) *argProblem {
	switch n.kind {
	case kTooDeep:
		return &argProblem{ptr, "depth", fmt.Sprintf("the arguments nest deeper than %d levels", maxParseDepth)}
	case kString:
		if n.bad {
			return &argProblem{ptr, "utf8", "the arguments hold a string with invalid UTF-8 or a lone surrogate"}
		}
	case kNumber:
		if msg := inexactNumber(n.str); msg != "" {
			return &argProblem{ptr, "number", msg}
		}
	case kObject:
		seen := make(map[string]bool, len(n.obj))
		for _, m := range n.obj {
			if m.keyBad {
				return &argProblem{ptr, "utf8", "the arguments hold a key with invalid UTF-8 or a lone surrogate"}
			}
			if seen[m.key] {
				return &argProblem{ptr + "/" + pointerToken(m.key), "duplicate key", "the arguments repeat the key " + show(m.key)}
			}
			seen[m.key] = true
		}
		for _, m := range n.obj {
			if p := malformedArg(m.val, ptr+"/"+pointerToken(m.key)); p != nil {
				return p
			}
		}
	case kArray:
		for i, e := range n.arr {
			if p := malformedArg(e, ptr+"/"+strconv.Itoa(i)); p != nil {
				return p
			}
		}
	}
	return nil
}

// locate turns a jsonschema-go failure into (instance pointer, rule,
// message). jsonschema-go reports the chain of SCHEMA locations it was
// validating ("validating root: validating /properties/a/items: type:
// ..."); the instance pointer is derived from that chain: properties/X
// and prefixItems/N step into the instance directly, a $ref jump does not
// move it, and where the schema does not say which member failed (items,
// additionalProperties, patternProperties, ...) each candidate member is
// validated against that subschema — with jsonschema-go, through a wrapper
// that references the subschema inside the tool's own schema — and the
// first that fails is named.
func (t *Tool) locate(instance any, verr error) (ptr, rule, msg string) {
	chain, rest := schemaChain(verr)
	rule = ruleOf(rest)
	msg = escapeText(tidyNumbers(rule, rest), 300, false)
	cur := reflect.ValueOf(instance)
	prev := ""
	for _, next := range chain[min(1, len(chain)):] {
		if !strings.HasPrefix(next, prev+"/") {
			prev = next // a $ref jump: the instance does not move
			continue
		}
		toks := splitPointer(next[len(prev)+1:])
		var ok bool
		cur, ptr, ok = t.step(cur, ptr, prev, toks)
		if !ok {
			return ptr, rule, msg
		}
		prev = next
	}
	return ptr, rule, msg
}

// step moves the instance along one relative schema path.
func (t *Tool) step(cur reflect.Value, ptr, base string, toks []string) (reflect.Value, string, bool) {
	sp := base
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		sp += "/" + escapeToken(tok)
		for cur.Kind() == reflect.Interface {
			cur = cur.Elem()
		}
		switch tok {
		case "properties", "prefixItems":
			if i+1 >= len(toks) {
				return cur, ptr, false
			}
			i++
			key := toks[i]
			sp += "/" + escapeToken(key)
			child, ok := childOf(cur, key)
			if !ok {
				return cur, ptr, false
			}
			cur, ptr = child, ptr+"/"+pointerToken(key)
		case "items", "additionalItems", "unevaluatedItems", "contains",
			"additionalProperties", "unevaluatedProperties", "patternProperties", "propertyNames":
			if tok == "items" && i+1 < len(toks) {
				if _, err := strconv.Atoi(toks[i+1]); err == nil { // draft-07 items array
					i++
					sp += "/" + toks[i]
					child, ok := childOf(cur, toks[i])
					if !ok {
						return cur, ptr, false
					}
					cur, ptr = child, ptr+"/"+toks[i]
					continue
				}
			}
			if tok == "patternProperties" && i+1 < len(toks) {
				i++
				sp += "/" + escapeToken(toks[i])
			}
			key, child, ok := t.firstFailing(cur, sp, tok == "propertyNames")
			if !ok {
				return cur, ptr, false
			}
			cur, ptr = child, ptr+"/"+pointerToken(key)
		case "allOf", "anyOf", "oneOf", "dependentSchemas", "dependencies", "$defs", "definitions":
			i++ // the next token names the subschema; the instance stays
			if i < len(toks) {
				sp += "/" + escapeToken(toks[i])
			}
		case "not", "if", "then", "else":
		default:
			return cur, ptr, false
		}
	}
	return cur, ptr, true
}

// firstFailing returns the first member of cur (array order, or sorted
// keys) that fails the subschema at schema pointer sp.
func (t *Tool) firstFailing(cur reflect.Value, sp string, names bool) (string, reflect.Value, bool) {
	rs := t.subValidator(sp)
	if rs == nil {
		return "", cur, false
	}
	switch cur.Kind() {
	case reflect.Slice:
		for i := 0; i < cur.Len(); i++ {
			if rs.Validate(cur.Index(i).Interface()) != nil {
				return strconv.Itoa(i), cur.Index(i), true
			}
		}
	case reflect.Map:
		keys := make([]string, 0, cur.Len())
		for _, k := range cur.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := cur.MapIndex(reflect.ValueOf(k))
			probe := v.Interface()
			if names {
				probe = k
			}
			if rs.Validate(probe) != nil {
				return k, v, true
			}
		}
	}
	return "", cur, false
}

const locatorID = "urn:relavium:tool-input"

// subValidator compiles (once) a validator for the subschema at pointer sp
// of the tool's input schema: {"$defs":{"r":<schema with $id>},"$ref":"<id>#sp"}.
func (t *Tool) subValidator(sp string) *jsonschema.Resolved {
	t.locMu.Lock()
	defer t.locMu.Unlock()
	if rs, ok := t.loc[sp]; ok {
		return rs
	}
	if t.loc == nil {
		t.loc = map[string]*jsonschema.Resolved{}
	}
	var rs *jsonschema.Resolved
	if len(t.loc) < 64 { // bound the cache; a miss just means no finer pointer
		src := make([]byte, 0, len(t.inputSrc)+128)
		src = append(src, `{`...)
		if t.draft != "" {
			src = append(src, `"$schema":`...)
			src = appendJSONString(src, t.draft)
			src = append(src, ',')
		}
		src = append(src, `"$defs":{"r":{"$id":"`+locatorID+`",`...)
		src = append(src, t.inputSrc[1:]...) // the compiled source is a non-empty object
		src = append(src, `},"$ref":`...)
		src = appendJSONString(src, locatorID+"#"+sp)
		src = append(src, '}')
		var s jsonschema.Schema
		if json.Unmarshal(src, &s) == nil {
			rs, _ = s.Resolve(&jsonschema.ResolveOptions{})
		}
	}
	t.loc[sp] = rs
	return rs
}

func childOf(cur reflect.Value, key string) (reflect.Value, bool) {
	for cur.Kind() == reflect.Interface {
		cur = cur.Elem()
	}
	switch cur.Kind() {
	case reflect.Map:
		v := cur.MapIndex(reflect.ValueOf(key))
		return v, v.IsValid()
	case reflect.Slice:
		i, err := strconv.Atoi(key)
		if err != nil || i < 0 || i >= cur.Len() {
			return cur, false
		}
		return cur.Index(i), true
	}
	return cur, false
}

func splitPointer(p string) []string {
	toks := strings.Split(p, "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// ruleOf names the schema keyword an error message starts with.
func ruleOf(msg string) string {
	if strings.HasPrefix(msg, "unexpected additional properties") {
		return "additionalProperties"
	}
	head, _, ok := strings.Cut(msg, ":")
	if !ok {
		return "schema"
	}
	if i := strings.IndexByte(head, '['); i > 0 {
		head = head[:i]
	}
	for _, c := range head {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "schema"
		}
	}
	return head
}

// schemaChain splits a jsonschema-go failure ("validating root: validating
// /properties/a: type: ...") into the schema locations it passed ("" for
// the root) and the message of the rule that failed.
func schemaChain(verr error) (chain []string, rest string) {
	rest, _, _ = strings.Cut(verr.Error(), "\n")
	for strings.HasPrefix(rest, "validating ") {
		p, r, ok := strings.Cut(rest[len("validating "):], ": ")
		if !ok {
			break
		}
		if p == "root" {
			p = ""
		}
		chain = append(chain, p)
		rest = r
	}
	return chain, rest
}

// Explain renders a jsonschema-go validation failure of a flat object
// schema (an elicitation form, a workflow's inputs) for a person: the
// property it concerns, when the schema location names one, and the
// broken rule with its numbers as a person writes them:
// "cups: maximum: 20000 is greater than 20". Tool arguments get the fuller
// Tool.Validate, which names the instance pointer of any depth.
func Explain(verr error) string {
	chain, rest := schemaChain(verr)
	msg := escapeText(tidyNumbers(ruleOf(rest), rest), 300, false)
	if len(chain) == 0 {
		return msg
	}
	if toks := splitPointer(chain[len(chain)-1]); len(toks) >= 2 && toks[len(toks)-2] == "properties" {
		return displayName(toks[len(toks)-1]) + ": " + msg
	}
	return msg
}

// tidyNumbers rewrites jsonschema-go's numeric-bound messages, which print
// the instance as a fraction and the bound with %f ("maximum: 300/1 is
// greater than 5.000000"), with both numbers as a person writes them
// ("maximum: 300 is greater than 5"). Other messages pass unchanged.
func tidyNumbers(rule, msg string) string {
	switch rule {
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
	default:
		return msg
	}
	head, tail, ok := strings.Cut(msg, ": ")
	if !ok {
		return msg
	}
	value, rel, ok := strings.Cut(tail, " is ")
	i := strings.LastIndexByte(rel, ' ')
	if !ok || i < 0 {
		return msg
	}
	r, ok := new(big.Rat).SetString(value)
	if !ok {
		return msg
	}
	bound, err := strconv.ParseFloat(rel[i+1:], 64)
	if err != nil {
		return msg
	}
	v := r.RatString()
	if f, exact := r.Float64(); !r.IsInt() && exact {
		v = strconv.FormatFloat(f, 'g', -1, 64)
	}
	return head + ": " + v + " is " + rel[:i+1] + strconv.FormatFloat(bound, 'g', -1, 64)
}
