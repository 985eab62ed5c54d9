package fields

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/relavium/relavium/nesting"
)

// TypeError is text that fits none of a field's declared types.
type TypeError struct {
	Text  string
	Types []string
	Cause error // why the closest type refused it (a JSON syntax error), or nil
}

func (e *TypeError) Error() string {
	msg := fmt.Sprintf("%q is not %s", e.Text, typeNames(e.Types))
	if len(e.Types) == 1 && e.Types[0] == "boolean" {
		msg += ": write true or false"
	}
	if e.Cause != nil {
		msg += ": " + e.Cause.Error()
	}
	return msg
}

func (e *TypeError) Unwrap() error { return e.Cause }

// DepthError is JSON text nested deeper than nesting.JSONDepth, refused
// before it was decoded.
type DepthError struct {
	Over *nesting.Exceeded
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("%s at line %d, column %d: refused before it is parsed", e.Over.Describe(), e.Over.Line, e.Over.Col)
}

// Value types the text a person gave for the field (the rule is in the
// package doc). The value is JSON text, numbers exactly as written.
func (f Field) Value(text string) (json.RawMessage, error) {
	t := strings.TrimSpace(text)
	if t == "null" && f.Has("null") {
		return json.RawMessage("null"), nil
	}
	if v, ok := f.enumMember(text, t); ok {
		return v, nil
	}
	if f.Type() == "" && !f.Has("null") {
		return anyJSON(text, t)
	}
	var cause error
	for _, typ := range []string{"boolean", "integer", "number", "array", "object"} {
		if !f.Has(typ) {
			continue
		}
		v, err := typed(typ, t)
		if err == nil {
			return v, nil
		}
		if _, deep := err.(*DepthError); deep {
			return nil, err
		}
		if cause == nil {
			cause = err
		}
	}
	if f.Has("string") {
		return quote(text), nil
	}
	if _, isSyntax := cause.(*json.SyntaxError); !isSyntax {
		cause = nil
	}
	return nil, &TypeError{Text: text, Types: f.Types, Cause: cause}
}

// enumMember is the enum member the text names: a string member equal to
// the text, else a member whose JSON equals the text's.
func (f Field) enumMember(text, t string) (json.RawMessage, bool) {
	for _, e := range f.Enum {
		if s, ok := e.(string); ok && s == text {
			return quote(s), true
		}
	}
	if len(f.Enum) == 0 || !json.Valid([]byte(t)) {
		return nil, false
	}
	for _, e := range f.Enum {
		if _, isStr := e.(string); isStr {
			continue
		}
		enc, err := json.Marshal(e)
		if err == nil && jsonEqual(enc, []byte(t)) {
			return enc, true
		}
	}
	return nil, false
}

// jsonEqual compares two JSON texts as values (numbers by their value).
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	p, _ := json.Marshal(x)
	q, _ := json.Marshal(y)
	return bytes.Equal(p, q)
}

// typed reads t as one JSON type.
func typed(typ, t string) (json.RawMessage, error) {
	switch typ {
	case "boolean":
		switch strings.ToLower(t) {
		case "true":
			return json.RawMessage("true"), nil
		case "false":
			return json.RawMessage("false"), nil
		}
		return nil, errNotType
	case "integer":
		return integer(t)
	case "number":
		return number(t)
	}
	if err := depth(t); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(t), new(json.RawMessage)); err != nil {
		return nil, err
	}
	open := byte('[')
	if typ == "object" {
		open = '{'
	}
	if t == "" || t[0] != open {
		return nil, errNotType
	}
	return json.RawMessage(t), nil
}

var errNotType = fmt.Errorf("not of the type")

// integer reads decimal digits with an optional sign, past int64 too, as
// the canonical JSON integer (no plus sign, no leading zeros).
func integer(t string) (json.RawMessage, error) {
	digits := strings.TrimPrefix(strings.TrimPrefix(t, "+"), "-")
	if digits == "" || len(digits) != len(t)-signLen(t) {
		return nil, errNotType
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return nil, errNotType
		}
	}
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return json.RawMessage("0"), nil
	}
	if strings.HasPrefix(t, "-") {
		digits = "-" + digits
	}
	return json.RawMessage(digits), nil
}

func signLen(t string) int {
	if strings.HasPrefix(t, "+") || strings.HasPrefix(t, "-") {
		return 1
	}
	return 0
}

// number reads a finite decimal number: a JSON number literal is kept as
// written; another decimal spelling ParseFloat reads (+1, .5, 1.) is
// written as JSON writes that float64.
func number(t string) (json.RawMessage, error) {
	if t != "" && json.Valid([]byte(t)) && (t[0] == '-' || (t[0] >= '0' && t[0] <= '9')) {
		if _, err := strconv.ParseFloat(t, 64); err == nil {
			return json.RawMessage(t), nil
		}
		return nil, errNotType // beyond float64
	}
	if strings.ContainsAny(t, "xXpP_") {
		return nil, errNotType
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, errNotType
	}
	b, _ := json.Marshal(f)
	return b, nil
}

// anyJSON is a field without a declared type: JSON text is that value,
// anything else the string as written.
func anyJSON(text, t string) (json.RawMessage, error) {
	if err := depth(t); err != nil {
		return nil, err
	}
	if t != "" && json.Valid([]byte(t)) {
		return json.RawMessage(t), nil
	}
	return quote(text), nil
}

func depth(t string) error {
	if _, over := nesting.JSON([]byte(t), nesting.Limits{MaxDepth: nesting.JSONDepth}); over != nil {
		return &DepthError{Over: over}
	}
	return nil
}

func quote(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// typeNames is "an integer", "a string or null", "an array or an object".
func typeNames(ts []string) string {
	parts := make([]string, 0, len(ts))
	for _, t := range ts {
		switch t {
		case "integer", "array", "object":
			parts = append(parts, "an "+t)
		case "null":
			parts = append(parts, "null")
		case "number", "boolean", "string":
			parts = append(parts, "a "+t)
		default:
			parts = append(parts, strconv.Quote(t))
		}
	}
	if len(parts) == 0 {
		return "a JSON value"
	}
	if len(parts) == 1 && (ts[0] == "array" || ts[0] == "object") {
		return "a JSON " + ts[0]
	}
	return strings.Join(parts, " or ")
}
