package canonjson

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
)

// Marshal returns the canonical JSON of v.
//
// Accepted values: nil, bool, string, float64/float32, the integer kinds
// (within ±2^53−1), json.Number (written as the float64 it denotes, as
// JSON.parse reads it; an integer literal a float64 cannot hold exactly is
// refused), []any, []string, map[string]any, map[string]string. Anything
// else — a struct, a pointer, a time, a map with other keys — has no
// faithful JSON form and is refused, as is a non-finite number and a lone
// surrogate or any other invalid UTF-8 in a string or key.
func Marshal(v any) ([]byte, error) {
	b, err := appendValue(make([]byte, 0, 256), v)
	if err != nil {
		return nil, under(err, "$")
	}
	return b, nil
}

// appendValue appends the canonical form of v. A refusal's Path is relative
// to v; the callers above prefix their part of it.
func appendValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		if x {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case string:
		return appendValidString(b, x)
	case float64, float32:
		return AppendNumber(b, reflect.ValueOf(x).Float())
	case int, int8, int16, int32, int64:
		return appendInt(b, reflect.ValueOf(x).Int())
	case uint, uint8, uint16, uint32, uint64:
		return appendUint(b, reflect.ValueOf(x).Uint())
	case json.Number:
		return appendLiteral(b, string(x))
	case []string:
		return appendArray(b, x, appendValidString)
	case []any:
		return appendArray(b, x, appendValue)
	case map[string]any:
		return appendObject(b, x)
	case map[string]string:
		return appendObject(b, x)
	}
	return nil, refused(fmt.Sprintf("a %T has no faithful JSON form", v))
}

func appendArray[E any](b []byte, xs []E, elem func([]byte, E) ([]byte, error)) ([]byte, error) {
	b = append(b, '[')
	for i, e := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = elem(b, e); err != nil {
			return nil, under(err, "["+strconv.Itoa(i)+"]")
		}
	}
	return append(b, ']'), nil
}

func appendObject[V any](b []byte, m map[string]V) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, CompareUTF16)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendValidString(b, k); err != nil {
			return nil, under(err, " key")
		}
		b = append(b, ':')
		if b, err = appendValue(b, m[k]); err != nil {
			return nil, under(err, "."+k)
		}
	}
	return append(b, '}'), nil
}
