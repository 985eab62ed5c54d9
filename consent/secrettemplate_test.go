package consent

import (
	"slices"
	"strings"
	"testing"
)

func TestSecretTemplate(t *testing.T) {
	for _, tc := range []struct {
		in       string
		literals []string
		refs     []string
		ok       bool
	}{
		{"plain", []string{"plain"}, nil, true},
		{"", []string{""}, nil, true},
		{"{{secrets.linear}}", []string{"", ""}, []string{"linear"}, true},
		{"Bearer {{secrets.linear}}", []string{"Bearer ", ""}, []string{"linear"}, true},
		{"{{secrets.a}}:{{secrets.b-c.d_e}}", []string{"", ":", ""}, []string{"a", "b-c.d_e"}, true},
		{"{{secrets.}}", nil, nil, false},
		{"{{ secrets.a }}", nil, nil, false},
		{"{{env.HOME}}", []string{"", ""}, []string{"env.HOME"}, true},
		{"Bearer {{env.API_KEY}}!", []string{"Bearer ", "!"}, []string{"env.API_KEY"}, true},
		{"{{env.HOME:-x}}", nil, nil, false},
		{"{{secrets.env.HOME}}", nil, nil, false},
		{"Bearer {{secrets.a", nil, nil, false},
		{"a}}b", nil, nil, false},
		{"{{secrets.a}}}}", nil, nil, false},
		{"{{secrets.a/b}}", nil, nil, false},
	} {
		lits, refs, ok := SecretTemplate(tc.in)
		if ok != tc.ok || ok && (!slices.Equal(lits, tc.literals) || !slices.Equal(refs, tc.refs)) {
			t.Errorf("SecretTemplate(%q) = %q %q %v, want %q %q %v", tc.in, lits, refs, ok, tc.literals, tc.refs, tc.ok)
		}
	}
}

// FuzzSecretTemplate: an accepted value is exactly its literals with each
// reference between them, no literal holds a brace pair, and every name is
// one SecretRef accepts.
func FuzzSecretTemplate(f *testing.F) {
	for _, s := range []string{"Bearer {{secrets.linear}}", "{{env.A}}{{secrets.b}}", "{{secrets.a}}{{secrets.b}}", "{{{secrets.a}}", "x}}", "{{secrets.a}}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		lits, refs, ok := SecretTemplate(v)
		if !ok {
			return
		}
		if len(lits) != len(refs)+1 {
			t.Fatalf("%d literals for %d refs", len(lits), len(refs))
		}
		var b strings.Builder
		for i, l := range lits {
			if strings.Contains(l, "{{") || strings.Contains(l, "}}") {
				t.Fatalf("literal %q holds a brace pair", l)
			}
			b.WriteString(l)
			if i < len(refs) {
				if _, ok := SecretRef("{{secrets." + refs[i] + "}}"); !ok {
					t.Fatalf("name %q", refs[i])
				}
				b.WriteString(BindingRef(refs[i]))
			}
		}
		if b.String() != v {
			t.Fatalf("reassembled %q from %q", b.String(), v)
		}
	})
}
