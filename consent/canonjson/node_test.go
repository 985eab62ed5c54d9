package canonjson

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/consent/internal/jsref"
)

// TestDifferentialAgainstNode encodes random values full of the characters
// and numbers where Go and JavaScript differ and compares the bytes with the
// independent JavaScript reference testdata/consent/canonical.js run by a
// real node process. It needs node; TestTrapVectors holds node-computed
// vectors for the same traps without it.
func TestDifferentialAgainstNode(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	num := func() float64 {
		switch rng.IntN(4) {
		case 0:
			return float64(rng.Int64N(1<<54) - 1<<53)
		case 1:
			return math.Pow(10, float64(rng.IntN(60)-30)) * (rng.Float64() - 0.5)
		}
		for {
			if f := math.Float64frombits(rng.Uint64()); !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f
			}
		}
	}
	var value func(depth int) any
	value = func(depth int) any {
		switch k := rng.IntN(6); {
		case k == 0 || depth > 2:
			return num()
		case k == 1:
			return jsref.String(rng, 5)
		case k == 2:
			a := []any{}
			for n := rng.IntN(4); n > 0; n-- {
				a = append(a, value(depth+1))
			}
			return a
		default:
			m := map[string]any{}
			for n := rng.IntN(5); n > 0; n-- {
				m[jsref.String(rng, 5)] = value(depth + 1)
			}
			return m
		}
	}
	var values, reqs []any
	for i := 0; i < 400; i++ {
		v := value(0)
		values = append(values, v)
		reqs = append(reqs, map[string]any{"value": v})
	}
	answers := jsref.Ask(t, filepath.Join("..", "..", "testdata", "consent", "canonical.js"), reqs)
	for i, want := range answers {
		got, err := Marshal(values[i])
		if err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
		if string(got) != want.Canonical {
			t.Fatalf("value %d differs:\n go   %+q\n node %+q", i, got, want.Canonical)
		}
	}
}
