package main

import (
	"fmt"
	"strings"
)

// q quotes s as a JSON string, escaping only '"', '\' and C0 controls:
// every other byte (invalid UTF-8, bidi, C1) goes out raw.
func q(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// obj builds an object schema from raw "key":value members.
func obj(members ...string) string {
	return `{"type":"object"` + prefixComma(members) + `}`
}

func prefixComma(members []string) string {
	if len(members) == 0 {
		return ""
	}
	return "," + strings.Join(members, ",")
}

// props builds a "properties" member from name/schema pairs.
func props(pairs ...string) string {
	var b strings.Builder
	b.WriteString(`"properties":{`)
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(q(pairs[i]) + ":" + pairs[i+1])
	}
	b.WriteString("}")
	return b.String()
}

// tool builds a tool object with the given name, description and schema.
func tool(name, desc, schema string, extra ...string) string {
	s := `{"name":` + q(name)
	if desc != "" {
		s += `,"description":` + q(desc)
	}
	if schema != "" {
		s += `,"inputSchema":` + schema
	}
	return s + prefixComma(extra) + `}`
}

// simple is a valid tool with one string property.
func simple(name string) string {
	return tool(name, "A well-behaved tool.", obj(props("q", `{"type":"string"}`)))
}

// sized returns s repeated to exactly n bytes (s must be ASCII-free of
// multi-byte runes unless n divides evenly).
func sized(s string, n int) string {
	out := strings.Repeat(s, n/len(s))
	return out + strings.Repeat("a", n-len(out))
}

// nested returns n levels of {"items": ...} around inner.
func nested(n int, inner string) string {
	return strings.Repeat(`{"items":`, n) + inner + strings.Repeat(`}`, n)
}

// single serves one page.
func single(tools ...string) func(string) page {
	return func(string) page { return page{tools: tools} }
}
