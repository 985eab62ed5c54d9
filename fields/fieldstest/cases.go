// Package fieldstest is the table every surface that types a person's text
// into a tool argument is held to (mcp call KEY=VALUE, run --input, the
// TUI's call form, an elicitation form): each surface's own test drives its
// real entry point over Cases and expects Want.
//
// Allowed imports: the standard library only.
package fieldstest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
)

// Schema is the object schema every case's property "v" sits in; "$defs"
// holds what the $ref cases point at.
func Schema(prop string) json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"v":` + prop + `},` +
		`"$defs":{"Text":{"type":["string","null"]},"Count":{"type":"integer"},` +
		`"Point":{"type":"object","properties":{"x":{"type":"integer"}}},"Alias":{"$ref":"#/$defs/Count"}}}`)
}

// Case is one property, one typed text and the JSON value every surface
// must produce for it.
type Case struct {
	Name string
	Prop string // the property schema of "v"
	Text string
	// Want is the argument's JSON text exactly ("" when Err is set).
	Want string
	// Err is a substring of the error every surface gives instead.
	Err string
	// Input is the same field as a workflow input declaration (the members
	// of a YAML flow mapping, name aside), "" when a workflow input cannot
	// declare it (a union, a $ref, an untyped value).
	Input string
	// PlanRefuses marks an exact value a workflow plan cannot hold (it
	// writes numbers as float64): run --input refuses it instead, and says
	// so, rather than rounding it.
	PlanRefuses bool
	// Elicit marks a property an elicitation form may ask for (a flat
	// primitive: MCP elicitation allows string, number, integer, boolean
	// and enums of strings).
	Elicit bool
}

// Cases is the agreement table.
var Cases = []Case{
	{Name: "string|null takes digits as text", Prop: `{"type":["string","null"]}`, Text: "3", Want: `"3"`},
	{Name: "string|null takes the literal null as null", Prop: `{"type":["string","null"]}`, Text: "null", Want: `null`},
	{Name: "string|null keeps text as written", Prop: `{"type":["string","null"]}`, Text: ` a "b" `, Want: `" a \"b\" "`},
	{Name: "anyOf string,null reads as the union", Prop: `{"anyOf":[{"type":"string"},{"type":"null"}]}`, Text: "3", Want: `"3"`},
	{Name: "string keeps null as text", Prop: `{"type":"string"}`, Text: "null", Want: `"null"`, Input: `type: string`, Elicit: true},
	{Name: "string keeps JSON as text", Prop: `{"type":"string"}`, Text: `[1]`, Want: `"[1]"`, Input: `type: string`, Elicit: true},
	{Name: "integer", Prop: `{"type":"integer"}`, Text: "42", Want: `42`, Input: `type: integer`, Elicit: true},
	{Name: "integer past 2^53 is kept exact", Prop: `{"type":"integer"}`, Text: "9007199254740993", Want: `9007199254740993`, Input: `type: integer`, PlanRefuses: true, Elicit: true},
	{Name: "integer past int64 is kept exact", Prop: `{"type":"integer"}`, Text: "-123456789012345678901234567890", Want: `-123456789012345678901234567890`, Input: `type: integer`, PlanRefuses: true},
	{Name: "integer refuses a fraction", Prop: `{"type":"integer"}`, Text: "4.5", Err: "is not an integer", Input: `type: integer`, Elicit: true},
	{Name: "integer|null takes null", Prop: `{"type":["integer","null"]}`, Text: "null", Want: `null`},
	{Name: "integer|string takes digits as a number", Prop: `{"type":["integer","string"]}`, Text: "7", Want: `7`},
	{Name: "integer|string takes words as text", Prop: `{"type":["integer","string"]}`, Text: "seven", Want: `"seven"`},
	{Name: "number keeps its digits", Prop: `{"type":"number"}`, Text: "0.10", Want: `0.10`, Input: `type: number`, Elicit: true},
	{Name: "number refuses NaN", Prop: `{"type":"number"}`, Text: "NaN", Err: "is not a number", Input: `type: number`, Elicit: true},
	{Name: "boolean", Prop: `{"type":"boolean"}`, Text: "true", Want: `true`, Input: `type: boolean`},
	{Name: "enum of strings matches as typed", Prop: `{"type":"string","enum":["low","high"]}`, Text: "high", Want: `"high"`, Input: `type: string, enum: [low, high]`},
	{Name: "enum of numbers matches the number", Prop: `{"enum":[1,2]}`, Text: "2", Want: `2`},
	{Name: "enum string member wins over a number", Prop: `{"enum":["1",1]}`, Text: "1", Want: `"1"`},
	{Name: "array as JSON", Prop: `{"type":"array","items":{"type":"integer"}}`, Text: `[1, 9007199254740993]`, Want: `[1, 9007199254740993]`, Input: `type: array`, PlanRefuses: true},
	{Name: "array refuses an object", Prop: `{"type":"array"}`, Text: `{}`, Err: "is not a JSON array", Input: `type: array`},
	{Name: "array nested past the cap is refused", Prop: `{"type":"array"}`, Text: deep, Err: "nesting deeper than 256 levels", Input: `type: array`},
	{Name: "nested object as JSON, member order kept", Prop: `{"type":"object","properties":{"b":{"type":"object"},"a":{"type":"string"}}}`, Text: `{"b":{"c":[true]},"a":"x"}`, Want: `{"b":{"c":[true]},"a":"x"}`, Input: `type: object`},
	{Name: "$ref to a union", Prop: `{"$ref":"#/$defs/Text"}`, Text: "3", Want: `"3"`},
	{Name: "$ref to a union takes null", Prop: `{"$ref":"#/$defs/Text"}`, Text: "null", Want: `null`},
	{Name: "$ref chain to an integer", Prop: `{"$ref":"#/$defs/Alias"}`, Text: "12", Want: `12`},
	{Name: "$ref to an object", Prop: `{"$ref":"#/$defs/Point"}`, Text: `{"x":1}`, Want: `{"x":1}`},
	{Name: "untyped takes JSON", Prop: `{}`, Text: `{"k":[1]}`, Want: `{"k":[1]}`},
	{Name: "untyped takes other text as a string", Prop: `{}`, Text: `hello`, Want: `"hello"`},
}

// deep is an array nested one level past nesting.JSONDepth (256).
var deep = func() string {
	b := make([]byte, 0, 2*257)
	for range 257 {
		b = append(b, '[')
	}
	for range 257 {
		b = append(b, ']')
	}
	return string(b)
}()

// Lister serves one tools/list page holding one tool "t" whose input
// schema is Schema(prop): what a surface test hands discovery.Discover to
// admit the case's tool as a server would offer it.
type Lister string

// ListToolsRaw returns the page.
func (l Lister) ListToolsRaw(_ context.Context, cursor string) (json.RawMessage, error) {
	if cursor != "" {
		return nil, fmt.Errorf("no page %q", cursor)
	}
	return json.RawMessage(`{"tools":[{"name":"t","inputSchema":` + string(Schema(string(l))) + `}]}`), nil
}

// SameJSON reports whether got is want's JSON text exactly, insignificant
// spaces aside (member order and number spelling count).
func SameJSON(got []byte, want string) bool {
	var a, b bytes.Buffer
	return json.Compact(&a, got) == nil && json.Compact(&b, []byte(want)) == nil && bytes.Equal(a.Bytes(), b.Bytes())
}

// SameValue reports whether got (a decoded Go value) is the value want
// spells: numbers compared by their decimal text, objects without order.
// For a surface that holds arguments decoded (a workflow plan, an
// elicitation answer).
func SameValue(got any, want string) bool {
	g, err := json.Marshal(got)
	if err != nil {
		return false
	}
	return reflect.DeepEqual(numbers(decode(g)), numbers(decode([]byte(want))))
}

func decode(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return errors.New("not JSON")
	}
	return v
}

// numbers spells every json.Number as the float64 it reads as, so 0.10
// and 0.1 agree while 9007199254740993 and 9007199254740992 (equal as
// float64) are kept apart by their exact integer text.
func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, ok := new(big.Int).SetString(string(x), 10); ok {
			return "int:" + i.String()
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return "int:" + strconv.FormatInt(int64(f), 10)
		}
		return "float:" + strconv.FormatFloat(f, 'g', -1, 64)
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbers(x[k])
		}
	}
	return v
}
