package consent

import "testing"

func TestEnvRef(t *testing.T) {
	for _, tc := range []struct {
		in, name, def string
		hasDef, ok    bool
	}{
		{"{{env.API_KEY}}", "API_KEY", "", false, true},
		{"{{env.LEVEL:-info}}", "LEVEL", "info", true, true},
		{"{{env.X:-}}", "X", "", true, true},
		{"{{env.1X}}", "", "", false, false},
		{"{{env.}}", "", "", false, false},
		{"x{{env.A}}", "", "", false, false},
		{"{{env.A:-{{b}}}}", "", "", false, false},
		{"{{ env.A }}", "", "", false, false},
	} {
		name, def, hasDef, ok := EnvRef(tc.in)
		if name != tc.name || def != tc.def || hasDef != tc.hasDef || ok != tc.ok {
			t.Errorf("EnvRef(%q) = %q %q %v %v", tc.in, name, def, hasDef, ok)
		}
	}
}

// An env-ref digests the variable's name and the authored default, never a
// value: it differs from the literal text, from another variable, and from
// the same variable with a default.
func TestEnvRefDigest(t *testing.T) {
	d := func(v string) string {
		s, err := Digest("/bin/x", nil, []EnvEntry{TagEnv("K", v)}, "/p")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ref := d("{{env.A}}")
	for _, other := range []string{"{{env.B}}", "{{env.A:-x}}", "{{secrets.A}}", "A"} {
		if d(other) == ref {
			t.Errorf("%q digests like {{env.A}}", other)
		}
	}
	if d("{{env.A:-x}}") == d("{{env.A:-y}}") {
		t.Error("the default is not digested")
	}
	if e := TagEnv("K", "{{env.A:-x}}"); e.Describe() != "env-ref {{env.A}} with a default" {
		t.Errorf("describe %q", e.Describe())
	}
}

// RefsIn reads both kinds of reference inside text, in order; a
// malformed one of either kind fails the whole text.
func TestRefsIn(t *testing.T) {
	text := "a{{secrets.k-1}}b{{env.HOME}}/c{{env.T:-v}}{{other}}"
	spans, ok := RefsIn(text)
	if !ok || len(spans) != 3 || spans[0].Secret != "k-1" || text[spans[0].Start:spans[0].End] != "{{secrets.k-1}}" ||
		spans[1].Name != "HOME" || spans[2].Name != "T" || spans[2].Def != "v" || !spans[2].HasDefault {
		t.Fatalf("RefsIn(%q) = %+v %v", text, spans, ok)
	}
	for _, bad := range []string{"{{secrets.}}", "{{secrets.a b}}", "x{{env.1X}}", "{{env.A", "{{secrets.a"} {
		if _, ok := RefsIn(bad); ok {
			t.Errorf("RefsIn(%q) accepted", bad)
		}
	}
}
