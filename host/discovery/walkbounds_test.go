package discovery

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestPageCaseVariantMembersAreMalformed(t *testing.T) {
	for _, p := range []string{
		`{"tools":[],"Tools":[{"name":"x","inputSchema":{"type":"object"}}]}`,
		`{"TOOLS":[],"tools":[]}`,
		`{"tools":[],"nextCursor":"a","NextCursor":"b"}`,
		`{"tools":[],"nextcursor":"a"}`,
	} {
		_, err := Discover(context.Background(), "s", fakeLister{"": p, "a": `{"tools":[]}`, "b": `{"tools":[]}`}, Options{})
		var de *Error
		if !errors.As(err, &de) || de.Code() != CodeMalformedPage {
			t.Errorf("page %s: err = %v, want %s", p, err, CodeMalformedPage)
		}
	}
}

func TestEmptyPageCapAtTheLimitAndOnePast(t *testing.T) {
	pages := func(empty int) fakeLister {
		f := fakeLister{}
		for i := 0; i < empty; i++ {
			cur := ""
			if i > 0 {
				cur = fmt.Sprint(i)
			}
			f[cur] = fmt.Sprintf(`{"tools":[],"nextCursor":"%d"}`, i+1)
		}
		f[fmt.Sprint(empty)] = `{"tools":[{"name":"last","inputSchema":{"type":"object"}}]}`
		return f
	}
	cat, err := Discover(context.Background(), "s", pages(3), Options{MaxEmptyPages: 3})
	if err != nil || len(cat.Tools) != 1 || cat.Pages != 4 {
		t.Fatalf("3 empty pages with cap 3: cat %+v, err %v", cat, err)
	}
	_, err = Discover(context.Background(), "s", pages(4), Options{MaxEmptyPages: 3})
	var de *Error
	if !errors.As(err, &de) || de.Code() != CodeEmptyPages || !strings.Contains(de.Msg, "4 empty") {
		t.Fatalf("4 empty pages with cap 3: err %v, want %s naming 4 pages", err, CodeEmptyPages)
	}
	if _, err := Discover(context.Background(), "s", pages(DefaultMaxEmptyPages), Options{}); err != nil {
		t.Fatalf("%d empty pages with the default cap: %v", DefaultMaxEmptyPages, err)
	}
}

func TestBudgetSpentExactlyStopsPaging(t *testing.T) {
	page := func(lastDesc int) string {
		var b strings.Builder
		b.WriteString(`{"tools":[`)
		for i := 0; i < 128; i++ {
			d := 8192 - 21 // name t000 (4) + {"type":"object"} (17)
			if i == 127 {
				d = lastDesc
			}
			fmt.Fprintf(&b, `{"name":"t%03d","description":"%s","inputSchema":{"type":"object"}},`, i, strings.Repeat("x", d))
		}
		return strings.TrimSuffix(b.String(), ",") + `],"nextCursor":"2"}`
	}
	next := `{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`

	l := &countingLister{inner: fakeLister{"": page(8192 - 21), "2": next}}
	cat, err := Discover(context.Background(), "s", l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cat.PayloadBytes != MaxPayload || len(cat.Tools) != 128 || l.calls != 1 || !cat.Truncated {
		t.Fatalf("payload %d, %d tools, %d pages fetched, truncated %v; want the full budget, 128 tools, 1 page, truncated", cat.PayloadBytes, len(cat.Tools), l.calls, cat.Truncated)
	}
	if len(cat.Skipped) != 1 || cat.Skipped[0].Code != ReasonPagingStopped {
		t.Errorf("skipped %+v, want only the paging_stopped row", cat.Skipped)
	}

	l = &countingLister{inner: fakeLister{"": page(8192 - 21 - 18), "2": next}}
	cat, err = Discover(context.Background(), "s", l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cat.PayloadBytes != MaxPayload || len(cat.Tools) != 129 || l.calls != 2 || cat.Truncated {
		t.Fatalf("payload %d, %d tools, %d pages fetched, truncated %v; want the full budget, 129 tools, 2 pages", cat.PayloadBytes, len(cat.Tools), l.calls, cat.Truncated)
	}
}

func TestNamespaceKeepsPseudoRowsLast(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"tools":[{"name":"a_b","inputSchema":{"type":"object"}}`)
	for i := 1; i <= MaxToolsPerServer; i++ {
		fmt.Fprintf(&b, `,{"name":"t%03d","inputSchema":{"type":"object"}}`, i)
	}
	b.WriteString(`],"nextCursor":"more"}`)
	big, err := Discover(context.Background(), "s", fakeLister{"": b.String()}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	other := discoverFake(t, "s_a", "b") // mcp_s_a_b, as is server s's a_b
	Namespace([]*Catalogue{big, other})
	var codes []string
	for _, sk := range big.Skipped {
		codes = append(codes, sk.Code)
	}
	want := []string{ReasonTooManyTools, ReasonNameCollision, ReasonPagingStopped}
	if !slices.Equal(codes, want) {
		t.Errorf("skipped rows %q, want %q", codes, want)
	}
}

// A failed walk's error carries the server's own words (a JSON-RPC error
// message) as its cause; rendered for a person it must not carry the
// terminal controls in them.
func TestFailedWalkRendersServerTextSafely(t *testing.T) {
	s := connect(t, viaStdio, "-case", "rpc-error", "-variant", "controls")
	_, err := Discover(context.Background(), "bad", s.lister, Options{})
	var de *Error
	if !errors.As(err, &de) || de.Code() != CodeListFailed {
		t.Fatalf("err = %v, want %s", err, CodeListFailed)
	}
	var b strings.Builder
	if err := de.WriteHuman(&b); err != nil {
		t.Fatal(err)
	}
	out := strings.TrimSuffix(b.String(), "\n")
	if !strings.Contains(out, "boom") || !strings.Contains(out, "evil") {
		t.Errorf("the server's message is lost: %q", out)
	}
	assertDisplaySafe(t, out)
}
