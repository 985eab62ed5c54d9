package discovery

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
)

// outcome is what one catalogue must yield: admitted tool names in order
// and skipped rows as "tool=code" (a multiset).
type outcome struct {
	admitted []string
	skipped  []string
}

var n128, n129 = strings.Repeat("n", 128), strings.Repeat("n", 129)

var hostileCases = map[string]outcome{
	"bounds": {
		admitted: []string{"desc_at_bound", "literal_at_bound", "enum_at_bound", "prop_at_bound", n128},
		skipped: []string{
			"desc_over=" + ReasonDescriptionTooLarge,
			"title_over=" + ReasonTitleTooLarge,
			"literal_over=" + ReasonLiteralTooLarge,
			"const_over=" + ReasonLiteralTooLarge,
			"nested_desc_over=" + ReasonLiteralTooLarge,
			"enum_over=" + ReasonEnumMemberTooLarge,
			"enum_object_over=" + ReasonEnumMemberTooLarge,
			"prop_over=" + ReasonPropertyNameTooLarge,
			displayName(n129) + "=" + ReasonInvalidName,
		},
	},
	"semantic": {
		admitted: []string{"semantic_ok"},
		skipped: []string{
			`name\u0009tab=` + ReasonControlChar,
			`name\u202ebidi=` + ReasonBidiChar,
			`name\u200bzw=` + ReasonInvisibleChar,
			`name\u009bc1=` + ReasonControlChar,
			"prop_tab=" + ReasonControlChar,
			"prop_lf=" + ReasonControlChar,
			"prop_bidi=" + ReasonBidiChar,
			"prop_nested_invisible=" + ReasonInvisibleChar,
			"enum_esc=" + ReasonControlChar,
			"enum_bidi=" + ReasonBidiChar,
			"const_lf=" + ReasonControlChar,
			"required_tab=" + ReasonControlChar,
			"default_c1=" + ReasonControlChar,
			"pattern_tab=" + ReasonControlChar,
			"patternprop_bidi=" + ReasonBidiChar,
			"defs_bidi=" + ReasonBidiChar,
			"items_enum_bel=" + ReasonControlChar,
			"examples_nul=" + ReasonControlChar,
			"format_cr=" + ReasonControlChar,
			"enum_invalid_utf8=" + ReasonInvalidUTF8,
			"const_lone_surrogate=" + ReasonInvalidUTF8,
			"data_description_esc=" + ReasonControlChar,
			"comment_lf=" + ReasonControlChar,
		},
	},
	"sanitize": {admitted: []string{"clean_me", "ann_title"}},
	"duplicates": {
		admitted: []string{"fine", "case_props_ok"},
		skipped: []string{
			"same=" + ReasonDuplicateToolName, "same=" + ReasonDuplicateToolName,
			"Case=" + ReasonDuplicateToolName, "case=" + ReasonDuplicateToolName,
			"dup_key=" + ReasonDuplicateKey,
			"case_key=" + ReasonCaseVariantKey,
			"dup_prop=" + ReasonDuplicateKey,
			"case_keyword=" + ReasonCaseVariantKey,
			"case_annotations=" + ReasonCaseVariantKey,
			"dup_in_default=" + ReasonDuplicateKey,
			"keyword_case=" + ReasonCaseVariantKey,
			"field_case=" + ReasonCaseVariantKey,
		},
	},
	"schemas": {
		admitted: []string{"draft07_ok", "draft2020_ok", "deep_at_cap", "recursive_ok", "output_ok"},
		skipped: []string{
			"draft04=" + ReasonSchemaDraftUnsupported,
			"draft2019=" + ReasonSchemaDraftUnsupported,
			"remote_ref=" + ReasonSchemaRemoteRef,
			"relative_ref=" + ReasonSchemaRemoteRef,
			"bad_pattern=" + ReasonSchemaBadPattern,
			"bad_pattern_key=" + ReasonSchemaBadPattern,
			"deep_over=" + ReasonSchemaTooDeep,
			"deep_bomb=" + ReasonSchemaTooDeep,
			"ref_cycle=" + ReasonSchemaRefCycle,
			"allof_cycle=" + ReasonSchemaRefCycle,
			"not_object=" + ReasonSchemaNotObject,
			"no_type=" + ReasonSchemaNotObject,
			"no_schema=" + ReasonSchemaNotObject,
			"bool_schema=" + ReasonSchemaNotObject,
			"dangling_ref=" + ReasonSchemaInvalid,
			"dynamic_ref=" + ReasonSchemaUnsupported,
			"embedded_id=" + ReasonSchemaUnsupported,
			"bad_keyword_type=" + ReasonSchemaInvalid,
			"huge_number=" + ReasonSchemaUnsupported,
			"huge_default=" + ReasonSchemaUnsupported,
			"output_remote_ref=" + ReasonSchemaRemoteRef,
		},
	},
	"annotations": {admitted: []string{"liar", "wrong_type", "honest", "not_an_object", "silent"}},
	"invalid": {
		admitted: []string{"valid_one"},
		skipped: []string{
			"#0=" + ReasonInvalidTool, "#1=" + ReasonInvalidTool,
			"#2=" + ReasonInvalidName, "#3=" + ReasonInvalidName,
			"desc_number=" + ReasonInvalidTool,
			"has space=" + ReasonInvalidName, "slash/name=" + ReasonInvalidName, "=" + ReasonInvalidName,
		},
	},
	"paged": {admitted: []string{"p1a", "p1b", "p3a"}},
}

func rows(c *Catalogue) []string {
	var out []string
	for _, s := range c.Skipped {
		if s.Server != c.Server {
			panic("skipped row for another server")
		}
		out = append(out, s.Tool+"="+s.Code)
	}
	sort.Strings(out)
	return out
}

func names(c *Catalogue) []string {
	var out []string
	for _, t := range c.Tools {
		out = append(out, t.Def.Tool)
	}
	return out
}

// TestHostileCatalogues: one catalogue per bound and rule, over stdio,
// Streamable HTTP (JSON answers) and Streamable HTTP (SSE answers).
func TestHostileCatalogues(t *testing.T) {
	for _, kind := range allTransports {
		for name, want := range hostileCases {
			t.Run(string(kind)+"/"+name, func(t *testing.T) {
				s := connect(t, kind, "-case", name)
				cat, err := Discover(context.Background(), "hostile", s.lister, Options{})
				if err != nil {
					t.Fatalf("Discover: %v", err)
				}
				if got := names(cat); !slices.Equal(got, want.admitted) {
					t.Errorf("admitted = %q\nwant       %q", got, want.admitted)
				}
				wantSkipped := slices.Clone(want.skipped)
				sort.Strings(wantSkipped)
				if got := rows(cat); !slices.Equal(got, wantSkipped) {
					t.Errorf("skipped = %q\nwant      %q", got, wantSkipped)
				}
				for _, sk := range cat.Skipped {
					if sk.Detail == "" || ReasonDescription(sk.Code) == "" {
						t.Errorf("row %+v has no detail or an undocumented code", sk)
					}
					assertDisplaySafe(t, sk.Tool+sk.Detail)
				}
				for _, tool := range cat.Tools {
					if tool.input == nil {
						t.Errorf("%s admitted without a compiled validator", tool.Def.Tool)
					}
				}
				if cat.PayloadBytes > MaxPayload {
					t.Errorf("payload %d over the bound", cat.PayloadBytes)
				}
			})
		}
	}
}

func TestSanitizedDefinitions(t *testing.T) {
	for _, kind := range allTransports {
		t.Run(string(kind), func(t *testing.T) {
			s := connect(t, kind, "-case", "sanitize")
			cat, err := Discover(context.Background(), "hostile", s.lister, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(cat.Tools) != 2 {
				t.Fatalf("admitted %q", names(cat))
			}
			clean := cat.Tools[0].Def
			if want := "Lists files evil done\nnext\nline end \ufffdx"; clean.Description != want {
				t.Errorf("description = %q, want %q", clean.Description, want)
			}
			if clean.Title != "Clean Me" {
				t.Errorf("title = %q", clean.Title)
			}
			wantSchema := `{"type":"object","properties":{"path":{"type":"string","title":"Path","description":"The path to read"}},"required":["path"]}`
			if string(clean.InputSchema) != wantSchema {
				t.Errorf("input schema = %s\nwant           %s", clean.InputSchema, wantSchema)
			}
			if p := cat.Tools[0].Def.Fields; len(p) != 1 || p[0].Name != "path" || !p[0].Required {
				t.Errorf("properties = %+v", p)
			}
			if got := cat.Tools[1].Def.Title; got != "Ann title" {
				t.Errorf("annotations title = %q", got)
			}
		})
	}
}

func TestLyingAnnotations(t *testing.T) {
	s := connect(t, viaStdio, "-case", "annotations")
	cat, err := Discover(context.Background(), "hostile", s.lister, Options{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Tool{}
	for _, tool := range cat.Tools {
		byName[tool.Def.Tool] = tool
	}
	liar := byName["liar"].Def.Annotations
	if liar.IsReadOnly() || !liar.IsDestructive() {
		t.Errorf("a tool claiming read-only AND destructive must read as destructive: %+v", liar)
	}
	for _, n := range []string{"wrong_type", "not_an_object", "silent"} {
		a := byName[n].Def.Annotations
		if a.ReadOnly != nil || a.Idempotent != nil || !a.IsDestructive() {
			t.Errorf("%s: hints of the wrong type must read as unsaid (destructive by default): %+v", n, a)
		}
	}
	if !byName["honest"].Def.Annotations.IsReadOnly() {
		t.Errorf("honest read-only hint lost")
	}
}

func TestAllowlist(t *testing.T) {
	for _, kind := range []transportKind{viaStdio, viaHTTP} {
		t.Run(string(kind), func(t *testing.T) {
			s := connect(t, kind, "-case", "allow")
			cat, err := Discover(context.Background(), "fs", s.lister, Options{Allowlist: []string{"read_file", "missing_tool"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := names(cat); !slices.Equal(got, []string{"read_file"}) {
				t.Errorf("admitted %q", got)
			}
			want := []string{"delete_all=" + ReasonNotInAllowlist, "write_file=" + ReasonNotInAllowlist}
			if got := rows(cat); !slices.Equal(got, want) {
				t.Errorf("skipped %q, want %q", got, want)
			}
			if !slices.Equal(cat.MissingAllowlisted, []string{"missing_tool"}) {
				t.Errorf("missing %q", cat.MissingAllowlisted)
			}
		})
	}
}

func TestCollisionsAcrossServers(t *testing.T) {
	for _, kind := range []transportKind{viaStdio, viaHTTP} {
		t.Run(string(kind), func(t *testing.T) {
			s1 := connect(t, kind, "-case", "collide1")
			s2 := connect(t, kind, "-case", "collide2")
			c1, err := Discover(context.Background(), "a_b", s1.lister, Options{})
			if err != nil {
				t.Fatal(err)
			}
			c2, err := Discover(context.Background(), "a", s2.lister, Options{})
			if err != nil {
				t.Fatal(err)
			}
			all := Namespace([]*Catalogue{c1, c2})
			var got []string
			for _, tool := range all {
				got = append(got, tool.Def.Name)
			}
			if want := []string{"mcp_a_b_only_here", "mcp_a_only_there"}; !slices.Equal(got, want) {
				t.Errorf("admitted %q, want %q", got, want)
			}
			if r := rows(c1); !slices.Equal(r, []string{"c=" + ReasonNameCollision, "x=" + ReasonNameCollision}) {
				t.Errorf("server a_b skipped %q", r)
			}
			if r := rows(c2); !slices.Equal(r, []string{"B_X=" + ReasonNameCollision, "b_c=" + ReasonNameCollision}) {
				t.Errorf("server a skipped %q", r)
			}
			for _, sk := range append(c1.Skipped, c2.Skipped...) {
				if !strings.Contains(sk.Detail, "collides with mcp_a") {
					t.Errorf("detail does not name the other tool: %q", sk.Detail)
				}
			}
		})
	}
}

func TestPaginationBombStopsPaging(t *testing.T) {
	for _, kind := range []transportKind{viaStdio, viaHTTP} {
		t.Run(string(kind)+"/budget", func(t *testing.T) {
			s := connect(t, kind, "-case", "bomb")
			cat, err := Discover(context.Background(), "bomb", s.lister, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if s.lister.calls != 3 || cat.Pages != 3 {
				t.Errorf("fetched %d pages (catalogue says %d), want 3: paging must stop once the budget is spent", s.lister.calls, cat.Pages)
			}
			if n := len(cat.Tools); n < 200 || n > 210 || !cat.Truncated {
				t.Errorf("admitted %d tools (truncated=%v)", n, cat.Truncated)
			}
			if cat.PayloadBytes > MaxPayload {
				t.Errorf("payload %d", cat.PayloadBytes)
			}
			// Every tool after the first refused one is refused too, in order.
			last := cat.Skipped[len(cat.Skipped)-1]
			if last.Code != ReasonPagingStopped || last.Tool != "*" {
				t.Errorf("last row %+v, want the paging_stopped pseudo row", last)
			}
			for _, sk := range cat.Skipped[:len(cat.Skipped)-1] {
				if sk.Code != ReasonAggregateBudget {
					t.Errorf("row %+v", sk)
				}
			}
			if got := len(cat.Tools) + len(cat.Skipped) - 1; got != 300 {
				t.Errorf("admitted+skipped = %d, want the 300 tools of 3 pages", got)
			}
		})
		t.Run(string(kind)+"/count", func(t *testing.T) {
			s := connect(t, kind, "-case", "bomb-count")
			cat, err := Discover(context.Background(), "bomb", s.lister, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(cat.Tools) != MaxToolsPerServer || s.lister.calls != 3 {
				t.Fatalf("admitted %d over %d pages", len(cat.Tools), s.lister.calls)
			}
			if cat.Tools[255].Def.Tool != "bomb_2_55" || cat.Skipped[0].Tool != "bomb_2_56" || cat.Skipped[0].Code != ReasonTooManyTools {
				t.Errorf("the 257th tool in declaration order must be the first refused: last admitted %s, first skipped %+v", cat.Tools[255].Def.Tool, cat.Skipped[0])
			}
		})
		// Once 256 tools are admitted nothing later can be: the page after
		// the one that filled the cap is never fetched.
		t.Run(string(kind)+"/cap-at-a-page-boundary", func(t *testing.T) {
			s := connect(t, kind, "-case", "bomb-edge")
			cat, err := Discover(context.Background(), "bomb", s.lister, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(cat.Tools) != MaxToolsPerServer || s.lister.calls != 2 || cat.Pages != 2 || !cat.Truncated {
				t.Fatalf("admitted %d over %d pages (catalogue says %d, truncated=%v); want 256 over 2", len(cat.Tools), s.lister.calls, cat.Pages, cat.Truncated)
			}
			if len(cat.Skipped) != 1 || cat.Skipped[0].Code != ReasonPagingStopped || !strings.Contains(cat.Skipped[0].Detail, ReasonTooManyTools) {
				t.Errorf("skipped %+v; want only the paging_stopped row naming %s", cat.Skipped, ReasonTooManyTools)
			}
		})
	}
}

func TestFailedWalks(t *testing.T) {
	cases := []struct {
		name string
		opts Options
		code fault.Code
	}{
		{"cursor-loop", Options{}, CodeCursorLoop},
		{"empty-pages", Options{}, CodeEmptyPages},
		{"page-cap", Options{MaxPages: 20}, CodePageCap},
		{"slow", Options{Deadline: time.Second}, CodeDeadline},
		{"malformed", Options{}, CodeMalformedPage},
		{"malformed-cursor", Options{}, CodeMalformedPage},
		{"rpc-error", Options{}, CodeListFailed},
	}
	for _, kind := range []transportKind{viaStdio, viaHTTP} {
		for _, tc := range cases {
			t.Run(string(kind)+"/"+tc.name, func(t *testing.T) {
				s := connect(t, kind, "-case", tc.name)
				start := time.Now()
				cat, err := Discover(context.Background(), "bad", s.lister, tc.opts)
				var de *Error
				if !errors.As(err, &de) || de.Code() != tc.code {
					t.Fatalf("Discover = %v, %v; want code %s", cat, err, tc.code)
				}
				if cat != nil {
					t.Errorf("a failed walk returned a catalogue")
				}
				if de.Server != "bad" || de.ExitCode() != 1 {
					t.Errorf("error %+v", de)
				}
				if tc.code == CodeDeadline && time.Since(start) > 5*time.Second {
					t.Errorf("the deadline did not bound the walk: %s", time.Since(start))
				}
				if tc.code == CodePageCap && s.lister.calls != 20 {
					t.Errorf("page cap: %d requests", s.lister.calls)
				}
			})
		}
	}
}

func TestCancelledWalkIsNotADeadline(t *testing.T) {
	s := connect(t, viaStdio, "-case", "slow")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(600*time.Millisecond, cancel)
	_, err := Discover(ctx, "slow", s.lister, Options{Deadline: time.Minute})
	var de *Error
	if !errors.As(err, &de) || de.Code() != CodeCancelled {
		t.Fatalf("err = %v, want %s", err, CodeCancelled)
	}
}

func TestPagedWalkOverHTTPCountsPages(t *testing.T) {
	s := connect(t, viaHTTPSSE, "-case", "paged")
	cat, err := Discover(context.Background(), "p", s.lister, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cat.Pages != 3 || cat.Truncated {
		t.Errorf("pages %d truncated %v", cat.Pages, cat.Truncated)
	}
}

// A denied tool is skipped in_denylist with its reason, whatever the
// allowlist says; the others are admitted as before.
func TestDenylist(t *testing.T) {
	for _, kind := range []transportKind{viaStdio, viaHTTP} {
		t.Run(string(kind), func(t *testing.T) {
			s := connect(t, kind, "-case", "allow")
			cat, err := Discover(context.Background(), "fs", s.lister, Options{Denylist: []string{"delete_all", "missing_tool"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := names(cat); !slices.Equal(got, []string{"read_file", "write_file"}) {
				t.Errorf("admitted %q", got)
			}
			want := []string{"delete_all=" + ReasonInDenylist}
			if got := rows(cat); !slices.Equal(got, want) {
				t.Errorf("skipped %q, want %q", got, want)
			}
			for _, sk := range cat.Skipped {
				if !strings.Contains(sk.Detail, "tools_denylist") {
					t.Errorf("skip %+v does not say why", sk)
				}
			}
		})
	}
}
