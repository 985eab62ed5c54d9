package nesting

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// deepJSON is valid JSON nesting n levels: arrays and objects alternating,
// with bracket-laden strings and escapes that must not count.
func deepJSON(n int) string {
	var b strings.Builder
	for i := range n {
		if i%2 == 0 {
			b.WriteString(`[`)
		} else {
			b.WriteString(`{"k\"[{":`)
		}
	}
	b.WriteString(`"[[{{\\\"]]"`)
	for i := n - 1; i >= 0; i-- {
		if i%2 == 0 {
			b.WriteString(`]`)
		} else {
			b.WriteString(`}`)
		}
	}
	return b.String()
}

// tokenDepth is the deepest nesting of valid JSON, by encoding/json's own
// tokenizer.
func tokenDepth(data []byte) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	depth, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return deepest
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
			deepest = max(deepest, depth)
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
	}
}

func TestJSONGaugeIsExactOnValidJSON(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 64, MessageDepth - 1, MessageDepth} {
		doc := []byte(deepJSON(n))
		if !json.Valid(doc) || tokenDepth(doc) != n {
			t.Fatalf("fixture %d is not %d deep", n, n)
		}
		for split := range len(doc) {
			g := &JSONGauge{}
			if i, j := g.Scan(doc[:split]), g.Scan(doc[split:]); i >= 0 || j >= 0 || g.Depth() != 0 {
				t.Fatalf("%d deep, split at %d: refused at %d/%d, depth left %d", n, split, i, j, g.Depth())
			}
			if n > 64 && split > 200 {
				break // the early splits cover the string states; the rest is the same
			}
		}
	}
	for _, n := range []int{MessageDepth + 1, 600, 10000} {
		doc := []byte(deepJSON(n))
		g := &JSONGauge{}
		i := g.Scan(doc)
		if i < 0 {
			t.Fatalf("%d deep passed", n)
		}
		if tokenDepth(doc[:i]) != MessageDepth || doc[i] != '[' && doc[i] != '{' {
			t.Fatalf("%d deep refused at byte %d (%q), not at the bracket opening level %d", n, i, doc[i], MessageDepth+1)
		}
	}
}

// FuzzJSONGauge: on any input, however it is split, the gauge refuses at
// exactly the byte where JSON (the whole-text scan) passes the same cap;
// on valid JSON that is exactly when encoding/json's tokenizer goes past
// it. The seed corpus is testdata/fuzz/FuzzJSONGauge.
func FuzzJSONGauge(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"]]}}"}]}`), uint8(2), uint64(1))
	f.Add([]byte(`["\\\"[[[", [[]]]`), uint8(1), uint64(2))
	f.Add([]byte(deepJSON(40)), uint8(39), uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, cap8 uint8, seed uint64) {
		limit := int(cap8%64) + 1
		want := -1
		if _, over := JSON(data, Limits{MaxDepth: limit}); over != nil {
			want = over.Offset
		}
		if json.Valid(data) {
			if deep := tokenDepth(data) > limit; deep != (want >= 0) {
				t.Fatalf("valid JSON %d deep, cap %d: JSON refused at %d", tokenDepth(data), limit, want)
			}
		}
		if got := (&JSONGauge{Max: limit}).Scan(data); got != want {
			t.Fatalf("whole input: gauge at %d, JSON at %d (%q)", got, want, data)
		}
		rng := rand.New(rand.NewPCG(seed, seed>>1|1))
		g := &JSONGauge{Max: limit}
		got := -1
		for off := 0; off < len(data); {
			k := min(1+rng.IntN(9), len(data)-off)
			if i := g.Scan(data[off : off+k]); i >= 0 {
				got = off + i
				break
			}
			off += k
		}
		if got != want {
			t.Fatalf("split scan refused at %d, JSON at %d (%q)", got, want, data)
		}
	})
}

// BenchmarkJSONGaugeEscapes gauges one 4 MiB string made of escapes and
// escaped quotes, split into 32 KiB reads: the scan stays linear.
func BenchmarkJSONGaugeEscapes(b *testing.B) {
	doc := []byte(`{"s":"` + strings.Repeat(`\n\"`, 1<<20) + `"}`)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		g := &JSONGauge{}
		for off := 0; off < len(doc); off += 32 << 10 {
			if g.Scan(doc[off:min(off+32<<10, len(doc))]) >= 0 {
				b.Fatal("refused")
			}
		}
		if g.Depth() != 0 {
			b.Fatal("depth left")
		}
	}
}

// BenchmarkJSONGaugeText gauges 4 MiB of JSON that is mostly one string.
func BenchmarkJSONGaugeText(b *testing.B) {
	doc := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 4<<20) + `"}]}}`)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		g := &JSONGauge{}
		if g.Scan(doc) >= 0 || g.Depth() != 0 {
			b.Fatal("refused")
		}
	}
}
