package discovery

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
)

// treeWalk is the walk as it was before pages were streamed: the whole page
// parsed into one tree, then every tool checked from its node. It is the
// reference the streamed walk is held to.
func treeWalk(raw []byte) (*Catalogue, error) {
	root, err := parseJSON(raw)
	if err != nil {
		return nil, err
	}
	if root.kind != kObject {
		return nil, errNotObject
	}
	var tools *node
	seen := map[string]bool{}
	for _, m := range root.obj {
		if m.key != "tools" && m.key != "nextCursor" {
			if strings.EqualFold(m.key, "tools") || strings.EqualFold(m.key, "nextCursor") {
				return nil, errors.New("case variant")
			}
			continue
		}
		if seen[m.key] {
			return nil, errors.New("repeated member")
		}
		seen[m.key] = true
		if m.key == "tools" {
			tools = m.val
			continue
		}
		switch m.val.kind {
		case kNull:
		case kString:
			if m.val.bad || len(m.val.str) > maxCursorBytes {
				return nil, errors.New("bad cursor")
			}
		default:
			return nil, errors.New("cursor not a string")
		}
	}
	if tools == nil || tools.kind != kArray {
		return nil, errors.New("no tools array")
	}
	st := newWalkState("s", Options{}.withDefaults())
	st.compiled = nil
	for i, n := range tools.arr {
		end, _, err := scanValue(raw, n.offset)
		if err != nil {
			return nil, err
		}
		b := built{rt: rawTool{data: raw[n.offset:end]}, done: true}
		if st.stopped == "" {
			b.t, b.name, b.key, b.sk = buildTool("s", i, n, nil, nil, DefaultMaxSchemaDepth, nil)
		}
		st.add(context.Background(), &b)
	}
	st.finish()
	return st.cat, nil
}

// streamWalk is Discover over one page.
func streamWalk(raw []byte) (*Catalogue, error) {
	return Discover(context.Background(), "s", fakeLister{"": string(raw)}, Options{})
}

func describe(cat *Catalogue) (admitted, skipped []string) {
	for _, t := range cat.Tools {
		admitted = append(admitted, fmt.Sprintf("%s size=%d objects=%d %x", t.Def.Tool, t.Size, t.schemaObjects, sha256.Sum256(t.canonical)))
	}
	for _, sk := range cat.Skipped {
		if sk.Tool != "*" { // pseudo rows are the paged walk's, not a page's
			skipped = append(skipped, sk.Tool+" "+sk.Code+" "+sk.Detail)
		}
	}
	return admitted, skipped
}

// compareWalks holds the streamed judgement of raw to the tree one: the same
// failure or the same catalogue, except that a tool the streamed walk
// refuses unread (tool_too_large, beyond what the tree walk measures) may
// differ; then it must never admit what the tree walk refused.
func compareWalks(t *testing.T, raw []byte) {
	t.Helper()
	want, werr := treeWalk(raw)
	got, gerr := streamWalk(raw)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("page %.200q: tree err %v, streamed err %v", raw, werr, gerr)
	}
	if werr != nil {
		var de *Error
		if !errors.As(gerr, &de) || de.Code() != CodeMalformedPage {
			t.Fatalf("page %.200q: streamed err %v, want %s", raw, gerr, CodeMalformedPage)
		}
		return
	}
	wa, ws := describe(want)
	ga, gs := describe(got)
	unread := slices.ContainsFunc(got.Skipped, func(sk engine.SkippedTool) bool { return sk.Code == ReasonToolTooLarge })
	if !unread {
		if !slices.Equal(wa, ga) || !slices.Equal(ws, gs) {
			t.Fatalf("page %.200q:\ntree admitted %.2000q skipped %.2000q\nstreamed admitted %.2000q skipped %.2000q", raw, wa, ws, ga, gs)
		}
		return
	}
	for _, a := range ga {
		if !slices.Contains(wa, a) {
			t.Fatalf("page %.200q: the streamed walk admitted %q, which the tree walk did not", raw, a)
		}
	}
}

var streamSeeds = []string{
	`{"tools":[]}`,
	`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":null}`,
	`{"tools":[{"name":"a","description":"x","description":"y","inputSchema":{"type":"object"}}]}`,
	`{"tools":[{"name":"a","Description":"x","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}}]}`,
	`{"tools":[{"name":"a\u202e","inputSchema":{"type":"object"}},{"name":"A","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]}`,
	`{"tools":[{"name":"p","inputSchema":{"type":"object","properties":{"x\t":{"type":"string"}}}}]}`,
	"{\"tools\":[{\"name\":\"u\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"p\":{\"enum\":[\"\xff\"]}}}}]}",
	`{"tools":[{"name":"s","inputSchema":{"type":"object","properties":{"p":{"const":"\ud800"}}}}]}`,
	`{"tools":[{"name":"d","inputSchema":{"type":"object","default":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}}]}`,
	`{"tools":[{"name":"r","inputSchema":{"type":"object","properties":{"a":{"$ref":"https://x/y"}}}}, 5, null, "x"]}`,
	`{"tools":[{"name":"c","inputSchema":{"type":"object","allOf":[{"$ref":"#"}]}},{"name":"ok","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}]}`,
	`{"tools":[{"name":"n","inputSchema":{"type":"object","properties":{"a":{"type":"number","maximum":1e400}}}}]}`,
	`{"tools":[{"name":"q","inputSchema":{"type":"object","properties":{"a":{"type":"string","pattern":"(?=x)"}}}}]}`,
	`{"tools":[{"name":"same","inputSchema":{"type":"object"}},{"name":"same","inputSchema":{"type":"object"}}],"_meta":{"x":1}}`,
	`{"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"destructiveHint":true,"title":"t"}}]}`,
	`{"tools":[],"Tools":[]}`,
	`{"tools":[],"nextCursor":5}`,
	`{"tools":[{"name":"a","inputSchema":{"type":"object"}}`,
	` {"tools" : [ {"inputSchema" : {"type" : "object"} , "name" : "w"} ] } `,
	`[]`,
}

func TestStreamedWalkMatchesTheTreeWalk(t *testing.T) {
	for _, s := range streamSeeds {
		compareWalks(t, []byte(s))
	}
	// The budget and the tool cap, across batches.
	var b strings.Builder
	b.WriteString(`{"tools":[`)
	for i := 0; i < 300; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"t%03d","description":"%s","inputSchema":{"type":"object","properties":{"a%d":{"type":"string"}}}}`, i, strings.Repeat("d", 4000+i), i%7)
	}
	b.WriteString(`],"nextCursor":"more"}`)
	compareWalks(t, []byte(b.String()))
}

func FuzzToolsStream(f *testing.F) {
	for _, s := range streamSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 64<<10 {
			return
		}
		compareWalks(t, raw)
	})
}

// A tool is judged on its raw measure before it is built.
func TestPrejudgeRefusesUnread(t *testing.T) {
	big := `{"name":"big","_meta":{"blob":"` + strings.Repeat("x", maxToolBytes) + `"},"inputSchema":{"type":"object"}}`
	many := `{"name":"many","inputSchema":{"type":"object","default":[` + strings.Repeat("0,", maxToolValues) + `0]}}`
	page := `{"tools":[` + big + `,` + many + `,{"name":"ok","inputSchema":{"type":"object"}}]}`
	cat, err := streamWalk([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	codes := skippedCodes(cat)
	if codes["big"] != ReasonToolTooLarge || codes["many"] != ReasonToolTooLarge || len(cat.Tools) != 1 || cat.Tools[0].Def.Tool != "ok" {
		t.Fatalf("skipped %v, admitted %v", codes, admittedNames(cat))
	}
	// The tree walk measures neither: it admits both (what the budget
	// counts of them fits) after building them.
	ref, err := treeWalk([]byte(page))
	if err != nil || len(ref.Tools) != 3 {
		t.Fatalf("tree walk: %v %v", admittedNames(ref), err)
	}
}

// token is pointerToken with a fast path: the same text for every input.
func TestTokenIsPointerToken(t *testing.T) {
	in := []string{"", "a", "field_01", "a/b", "a~b", `q"`, `b\s`, "tab\t", "é", "\u202e", strings.Repeat("x", maxShown), strings.Repeat("x", maxShown+1)}
	for c := 0; c < 256; c++ {
		in = append(in, "k"+string(rune(c)), "k"+string([]byte{byte(c)}))
	}
	for _, s := range in {
		if token(s) != pointerToken(s) {
			t.Errorf("token(%q) = %q, pointerToken %q", s, token(s), pointerToken(s))
		}
	}
}
