package consent

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// TestGoldenVectors runs the spec's four golden vectors verbatim.
func TestGoldenVectors(t *testing.T) {
	for _, tc := range []struct {
		command string
		args    []string
		env     [][2]string
		cwd     string
		digest  string
	}{
		{"/bin/x", nil, nil, "/w", "v1:50264fc33efd1056148d3d6642a98fcb74e03b214ed9c380feddb92f7e1714c2"},
		{"/bin/é☃", []string{"ünïcode"}, nil, "/w/é", "v1:fcf2ed9b8fd9d97d5c948cbddbc105319c78c2e3b486e5c7e9d89d5d8661e220"},
		{"/bin/x", []string{`a"b`, `c\d`}, nil, "/w", "v1:8b7c2b426792b5ca2364dc74e4c8b73c386aada84fb4745513b2a826ab92ed43"},
		{"/bin/x", []string{}, [][2]string{{"A", "{{secrets.k}}"}, {"B", "secret:k"}}, "/w", "v1:0a178265ba8310190e1cfe4e6e53e4797a4ffdea6768b8faa8ab70331f58431d"},
	} {
		var env []EnvEntry
		for _, e := range tc.env {
			env = append(env, TagEnv(e[0], e[1]))
		}
		got, err := Digest(tc.command, tc.args, env, tc.cwd)
		if err != nil {
			t.Fatalf("%s: %v", tc.command, err)
		}
		if got != tc.digest {
			t.Errorf("Digest(%q, %q, %v, %q) = %s, want %s", tc.command, tc.args, tc.env, tc.cwd, got, tc.digest)
		}
	}
}

type vectorFile struct {
	Fingerprints []struct {
		Name      string      `json:"name"`
		Command   string      `json:"command"`
		Args      []string    `json:"args"`
		Env       [][2]string `json:"env"`
		Cwd       string      `json:"cwd"`
		Canonical string      `json:"canonical"`
		Digest    string      `json:"digest"`
	} `json:"fingerprints"`
	Values []struct {
		Input     string `json:"input"`
		Canonical string `json:"canonical"`
	} `json:"values"`
}

// TestTrapVectors checks the vectors node computed (testdata/consent/
// gen_vectors.js): UTF-16 key order, JSON.stringify escaping, secret-ref
// shapes, ECMAScript number formatting.
func TestTrapVectors(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "consent", "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vf vectorFile
	if err := json.Unmarshal(raw, &vf); err != nil {
		t.Fatal(err)
	}
	if len(vf.Fingerprints) < 10 || len(vf.Values) < 4 {
		t.Fatalf("vectors.json holds %d fingerprints and %d values; expected the full set", len(vf.Fingerprints), len(vf.Values))
	}
	for _, v := range vf.Fingerprints {
		var env []EnvEntry
		for _, e := range v.Env {
			env = append(env, TagEnv(e[0], e[1]))
		}
		canon, err := fingerprintJSON(v.Command, v.Args, env, v.Cwd)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if string(canon) != v.Canonical {
			t.Errorf("%s:\n got %s\nwant %s", v.Name, canon, v.Canonical)
		}
		got, _ := Digest(v.Command, v.Args, env, v.Cwd)
		if got != v.Digest {
			t.Errorf("%s: digest %s, want %s", v.Name, got, v.Digest)
		}
	}
	for _, v := range vf.Values {
		var x any
		if err := json.Unmarshal([]byte(v.Input), &x); err != nil {
			t.Fatal(err)
		}
		got, err := CanonicalJSON(x)
		if err != nil {
			t.Errorf("%s: %v", v.Input, err)
			continue
		}
		if string(got) != v.Canonical {
			t.Errorf("CanonicalJSON(%s):\n got %s\nwant %s", v.Input, got, v.Canonical)
		}
	}
}

// TestCanonicalRefusals: values with no faithful JSON form are refused with
// E307 and a path and reason.
func TestCanonicalRefusals(t *testing.T) {
	for _, tc := range []struct {
		name   string
		v      any
		reason string
	}{
		{"lone high surrogate", "a\xed\xa0\x80b", "lone surrogate U+D800 at byte 1"},
		{"lone low surrogate", "\xed\xbf\xbf", "lone surrogate U+DFFF at byte 0"},
		{"surrogate pair encoded as WTF-8 (CESU)", "\xed\xa0\xbd\xed\xb8\x80", "lone surrogate U+D83D"},
		{"invalid byte", "ok\xff", "invalid UTF-8 byte 0xff at byte 2"},
		{"truncated sequence", "\xe2\x98", "invalid UTF-8 byte 0xe2"},
		{"overlong encoding", "\xc0\xaf", "invalid UTF-8 byte 0xc0"},
		{"bad key", map[string]any{"k\xed\xa0\x80": 1}, "$ key: lone surrogate"},
		{"bad nested value", map[string]any{"a": []any{"x", "\xff"}}, "$.a[1]: invalid UTF-8"},
		{"NaN", math.NaN(), "non-finite"},
		{"+Inf", math.Inf(1), "non-finite"},
		{"-Inf in array", []any{1.0, math.Inf(-1)}, "$[1]: the non-finite"},
		{"unsafe integer", int64(1 << 53), "beyond ±2^53−1"},
		{"unsafe unsigned", uint64(math.MaxUint64), "beyond 2^53−1"},
		{"struct", struct{ A int }{1}, "has no faithful JSON form"},
		{"time", time.Unix(0, 0), "time.Time has no faithful JSON form"},
		{"map with int keys", map[int]string{1: "a"}, "has no faithful JSON form"},
		{"pointer", new(string), "has no faithful JSON form"},
	} {
		_, err := CanonicalJSON(tc.v)
		var ce *Error
		if !errors.As(err, &ce) || ce.Code() != CodeNotCanonical || ce.ExitCode() != 2 {
			t.Errorf("%s: err = %v, want an E307 usage error", tc.name, err)
			continue
		}
		if !strings.Contains(ce.Msg, tc.reason) {
			t.Errorf("%s: message %q does not say %q", tc.name, ce.Msg, tc.reason)
		}
	}
	// A declaration holding a lone surrogate has no digest at all.
	if _, err := Digest("/bin/x", []string{"\xed\xb0\x80"}, nil, "/w"); err == nil {
		t.Error("Digest accepted a lone surrogate in an argument")
	}
	if _, err := Digest("/bin/x", nil, []EnvEntry{TagEnv("A\xff", "v")}, "/w"); err == nil {
		t.Error("Digest accepted invalid UTF-8 in an env name")
	}
}

// TestCompareUTF16MatchesEncoding checks the comparator against a direct
// comparison of the UTF-16 encodings, on random strings biased towards the
// ranges where byte order and UTF-16 order disagree.
func TestCompareUTF16MatchesEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := []func() rune{
		func() rune { return rune('a' + rng.IntN(3)) },
		func() rune { return rune(0xE000 + rng.IntN(3)) },
		func() rune { return rune(0xFFFD + rng.IntN(3)) },
		func() rune { return rune(0x10000 + rng.IntN(3)) },
		func() rune { return rune(0x1F600 + rng.IntN(2)) },
		func() rune { return rune(0x10FFFF - rng.IntN(2)) },
		func() rune { return rune(0xD7FF) },
	}
	gen := func() string {
		var b strings.Builder
		for n := rng.IntN(4); n > 0; n-- {
			b.WriteRune(pick[rng.IntN(len(pick))]())
		}
		return b.String()
	}
	for i := 0; i < 20000; i++ {
		a, b := gen(), gen()
		want := compareUnits(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		if got := CompareUTF16(a, b); got != want {
			t.Fatalf("CompareUTF16(%+q, %+q) = %d, want %d", a, b, got, want)
		}
	}
}

func compareUnits(a, b []uint16) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// TestEscapingIsNotEncodingJSON: the traps encoding/json would fall into.
func TestEscapingIsNotEncodingJSON(t *testing.T) {
	got, err := CanonicalJSON("<>&\u2028\u2029\x7f\x00\x1f")
	if err != nil {
		t.Fatal(err)
	}
	if want := "\"<>&\u2028\u2029\x7f\\u0000\\u001f\""; string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	std, _ := json.Marshal("<>&\u2028")
	if string(std) == string(got[:len(std)]) {
		t.Fatal("test is vacuous: encoding/json produced the same bytes")
	}
	if !utf8.Valid(got) {
		t.Fatal("output is not UTF-8")
	}
}
