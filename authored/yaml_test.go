package authored

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
)

// plain words every refusal by its number, so a test can tell them apart.
func plain(lone bool) Dialect {
	names := map[Refusal]string{RefuseUTF8: "utf8", RefuseNesting: "nesting", RefuseSyntax: "syntax", RefuseDocuments: "documents",
		RefuseAnchor: "anchor", RefuseAlias: "alias", RefuseTag: "tag", RefuseMergeKey: "merge", RefuseKey: "key",
		RefuseEscape: "escape", RefuseNode: "node"}
	return Dialect{FieldPaths: true, LoneAnchors: lone, Word: func(r Refusal, d ...string) (fault.Code, string) {
		return fault.Code("C" + names[r]), names[r] + ": " + strings.Join(d, " | ")
	}}
}

// TestOnePolicy: what the reader refuses, where it says it is, and that a
// refused file hands no body over.
func TestOnePolicy(t *testing.T) {
	cases := []struct {
		name, src string
		lone      bool
		want      string // code@line:col field, "" for a clean read
	}{
		{"clean", "a: [1, \"x\", {b: c}]\n", false, ""},
		{"empty", "", false, ""},
		{"not UTF-8", "a: \xff\n", false, "Cutf8@1:1 "},
		{"syntax", "a: [b\n", false, "Csyntax@"},
		{"two documents", "a: 1\n---\nb: 2\n", false, "Cdocuments@2:1 "},
		{"an anchor alone", "a: &x 1\n", false, "Canchor@1:4 a"},
		{"an anchor alone, tolerated", "a: &x 1\n", true, ""},
		{"an alias", "a: &x 1\nb: *x\n", true, "Calias@2:4 b"},
		{"a tag", "a:\n  - !!str 1\n", false, "Ctag@2:5 a[0]"},
		{"a merge key", "a:\n  <<: {b: 1}\n", false, "Cmerge@2:3 a.<<"},
		{"an integer key", "a:\n  1: x\n", false, "Ckey@2:3 a.1"},
		{"a lone surrogate", "a: \"\\udc00\"\n", false, "Cescape@1:4 a"},
		{"a surrogate pair is text", "a: \"\\ud83d\\ude00 \\U0001F600\"\n", false, ""},
		{"nesting", "a: " + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n", false, "Cnesting@1:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ps Problems
			body := ReadYAML("f.yaml", []byte(c.src), plain(c.lone), &ps)
			if c.want == "" {
				if len(ps) != 0 {
					t.Fatalf("problems on a clean file: %v", ps)
				}
				if (body == nil) != (c.src == "") {
					t.Fatalf("body %v for %q", body, c.src)
				}
				return
			}
			if body != nil {
				t.Fatal("a refused file handed a body over")
			}
			if len(ps) != 1 {
				t.Fatalf("want one problem, got %v", ps)
			}
			p := ps[0]
			if got := string(p.Code) + "@" + p.Pos.String()[len("f.yaml:"):] + " " + p.Field; !strings.HasPrefix(got, c.want) {
				t.Fatalf("got %q, want %q (%s)", got, c.want, p)
			}
		})
	}
}

func TestFieldPathsAreTheDialects(t *testing.T) {
	d := plain(false)
	d.FieldPaths = false
	var ps Problems
	ReadYAML("f.yaml", []byte("a:\n  - !!str 1\n"), d, &ps)
	if len(ps) != 1 || ps[0].Field != "" || ps[0].String() != "f.yaml:2:5: tag: !!str" {
		t.Fatalf("got %v", ps)
	}
}

func TestProblemsSortByPlace(t *testing.T) {
	ps := Problems{{Pos: Pos{File: "b", Line: 1, Col: 1}, Message: "1"}, {Pos: Pos{File: "a", Line: 2, Col: 1}, Message: "2"},
		{Pos: Pos{File: "a", Line: 1, Col: 5}, Message: "3"}, {Pos: Pos{File: "a", Line: 1, Col: 5}, Message: "4"}}
	ps.Sort()
	var got []string
	for _, p := range ps {
		got = append(got, p.Message)
	}
	if strings.Join(got, "") != "3421" {
		t.Fatalf("order %v", got)
	}
	if (Pos{}).String() != "" || (Pos{File: "f"}).String() != "f" {
		t.Fatal("Pos without a file or a line")
	}
}
