package consent

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

var (
	dA = fakeResolved("a").Digest
	dB = fakeResolved("b").Digest
)

func gl(digest, at string) string {
	return fmt.Sprintf(`{"v":1,"digest":%q,"command":"/bin/x","args":[],"envNames":[],"cwd":"/w","grantedAt":%q}`, digest, at)
}

func rl(digest, at string) string {
	return fmt.Sprintf(`{"v":1,"revokes":%q,"revokedAt":%q}`, digest, at)
}

const (
	t1 = "2026-01-01T00:00:00.000Z"
	t2 = "2026-01-02T00:00:00.000Z"
	t3 = "2026-01-03T00:00:00.000Z"
)

func TestFoldSemantics(t *testing.T) {
	v2 := "v2:" + strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name     string
		content  *string // nil: no file at all
		live     []string
		failLine int
		reason   string
	}{
		{name: "missing file", content: nil},
		{name: "empty file", content: ptr("")},
		{name: "grant", content: ptr(gl(dA, t1) + "\n"), live: []string{dA}},
		{name: "grant then revoke", content: ptr(gl(dA, t1) + "\n" + rl(dA, t2) + "\n")},
		{name: "grant, revoke, re-grant", content: ptr(gl(dA, t1) + "\n" + rl(dA, t2) + "\n" + gl(dA, t3) + "\n"), live: []string{dA}},
		{name: "revoke before grant does not cancel it", content: ptr(rl(dA, t1) + "\n" + gl(dA, t2) + "\n"), live: []string{dA}},
		{name: "revoke one of two", content: ptr(gl(dA, t1) + "\n" + gl(dB, t2) + "\n" + rl(dA, t3) + "\n"), live: []string{dB}},
		{name: "revoking an unknown digest is harmless", content: ptr(rl(dB, t1) + "\n" + gl(dA, t2) + "\n"), live: []string{dA}},
		{name: "complete last line without newline", content: ptr(gl(dA, t1) + "\n" + gl(dB, t2)), live: []string{dA, dB}},
		{name: "CRLF line endings", content: ptr(gl(dA, t1) + "\r\n" + gl(dB, t2) + "\r\n" + rl(dA, t3) + "\r\n"), live: []string{dB}},
		{name: "blank lines separate nothing", content: ptr("\n" + gl(dA, t1) + "\n\n  \n\r\n"), live: []string{dA}},
		{name: "another version's digest folds like any line", content: ptr(gl(v2, t1) + "\n" + gl(dA, t1) + "\n"), live: []string{v2, dA}},
		{name: "truncated last line (a revocation cut short)", content: ptr(gl(dA, t1) + "\n" + rl(dA, t2)[:30]),
			failLine: 2, reason: "truncated last line"},
		{name: "garbage line fails everything", content: ptr(gl(dA, t1) + "\nnot json\n" + gl(dB, t2) + "\n"),
			failLine: 2, reason: "not a JSON object"},
		{name: "NUL bytes", content: ptr(gl(dA, t1) + "\n\x00\x00\x00\n"), failLine: 2, reason: "not a JSON object"},
		{name: "array line", content: ptr("[1]\n"), failLine: 1, reason: "not a JSON object"},
		{name: "trailing data", content: ptr(gl(dA, t1) + " {}\n"), failLine: 1, reason: "not valid JSON"},
		{name: "unknown record version", content: ptr(`{"v":2,"digest":"` + dA + `"}` + "\n"), failLine: 1, reason: `unsupported record version "v":2`},
		{name: "no version", content: ptr(`{"digest":"` + dA + `"}` + "\n"), failLine: 1, reason: `no "v" field`},
		{name: "grant without grantedAt", content: ptr(`{"v":1,"digest":"` + dA + `","command":"/x","args":[],"envNames":[],"cwd":"/"}` + "\n"),
			failLine: 1, reason: `grant without "grantedAt"`},
		{name: "grant without args", content: ptr(`{"v":1,"digest":"` + dA + `","command":"/x","envNames":[],"cwd":"/","grantedAt":"` + t1 + `"}` + "\n"),
			failLine: 1, reason: `grant without "args"`},
		{name: "bad time", content: ptr(gl(dA, "yesterday") + "\n"), failLine: 1, reason: "not an ISO-8601 time"},
		{name: "revocation without time", content: ptr(`{"v":1,"revokes":"` + dA + `"}` + "\n"), failLine: 1, reason: `without "revokedAt"`},
		{name: "both digest and revokes", content: ptr(`{"v":1,"digest":"` + dA + `","revokes":"` + dA + `"}` + "\n"), failLine: 1, reason: "neither a grant nor a revocation"},
		{name: "neither", content: ptr(`{"v":1}` + "\n"), failLine: 1, reason: `neither "digest"`},
		{name: "not a digest", content: ptr(gl("sha256:abc", t1) + "\n"), failLine: 1, reason: "is not a digest"},
		{name: "wrong type", content: ptr(`{"v":1,"digest":"` + dA + `","command":"/x","args":"-v","envNames":[],"cwd":"/","grantedAt":"` + t1 + `"}` + "\n"),
			failLine: 1, reason: "not valid JSON"},
		{name: "over-long line", content: ptr(gl(dA, t1) + "\n" + strings.Repeat(" ", maxLineBytes+1) + "x\n"), failLine: 2, reason: "longer than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := tempHome(t)
			if tc.content != nil {
				writeStore(t, home, *tc.content)
			}
			g, err := Open(home).Fold()
			if g == nil {
				t.Fatal("Fold returned nil grants")
			}
			if tc.failLine > 0 {
				var fe *FoldError
				if !errors.As(err, &fe) {
					t.Fatalf("err = %v, want a *FoldError", err)
				}
				if fe.Line != tc.failLine || !strings.Contains(fe.Reason, tc.reason) || fe.Code() != CodeStoreUnreadable {
					t.Fatalf("fold error line %d reason %q, want line %d and %q", fe.Line, fe.Reason, tc.failLine, tc.reason)
				}
				if !strings.Contains(fe.Error(), "every stdio server is asked about again") || !strings.Contains(fe.Error(), StoreFile) {
					t.Fatalf("fold error does not tell the person what follows: %s", fe.Error())
				}
				if g.Len() != 0 {
					t.Fatalf("a failed fold must hold no grants, holds %d", g.Len())
				}
				return
			}
			if err != nil {
				t.Fatalf("Fold: %v", err)
			}
			var got []string
			for _, gr := range g.List() {
				got = append(got, gr.Digest)
			}
			want := append([]string(nil), tc.live...)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("live grants %v, want %v", got, want)
			}
		})
	}
}

func TestFoldListNewestFirstAndRegrantRefreshes(t *testing.T) {
	home := tempHome(t)
	writeStore(t, home, gl(dA, t1)+"\n"+gl(dB, t2)+"\n"+gl(dA, t3)+"\n")
	g, err := Open(home).Fold()
	if err != nil {
		t.Fatal(err)
	}
	list := g.List()
	if len(list) != 2 || list[0].Digest != dA || list[1].Digest != dB {
		t.Fatalf("List() = %v, want a (re-granted at t3) then b", list)
	}
	if list[0].Line != 3 || !list[0].GrantedAt.Equal(time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("re-grant kept line %d time %s", list[0].Line, list[0].GrantedAt)
	}
}

func ptr(s string) *string { return &s }

// FuzzFoldStreamingMatchesWhole folds arbitrary store content through the
// line reader, one byte per read, and checks it against a fold of the whole
// content split at '\n' (how the store was folded before it was streamed):
// the same live grants, or a failure at the same line.
func FuzzFoldStreamingMatchesWhole(f *testing.F) {
	for _, s := range []string{
		"", "\n", gl(dA, t1) + "\n", gl(dA, t1) + "\n" + rl(dA, t2) + "\n", gl(dA, t1) + "\r\n  \n" + gl(dB, t2),
		gl(dA, t1) + "\n" + rl(dA, t2)[:30], "not json\n", rl(dB, t1) + "\n" + gl(dA, t2) + "\n" + gl(dA, t3) + "\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantLine := map[string]bool{}, 0
		segs := strings.Split(string(data), "\n")
		for i, seg := range segs {
			if i == len(segs)-1 && seg == "" {
				break
			}
			if len(seg) > maxLineBytes {
				wantLine = i + 1
				break
			}
			line := strings.Trim(seg, " \t\r")
			if line == "" {
				continue
			}
			rec, reason := parseLine(line, i+1, nil, nil)
			if reason != "" {
				wantLine = i + 1
				break
			}
			if rec.grant != nil {
				want[rec.grant.Digest] = true
			} else {
				delete(want, rec.revokes)
			}
		}
		g, err := foldReader(iotest.OneByteReader(bytes.NewReader(data)), StoreFile)
		var fe *FoldError
		switch {
		case wantLine != 0:
			if !errors.As(err, &fe) || fe.Line != wantLine || g.Len() != 0 {
				t.Fatalf("streamed fold: %v (%d grants), want a failure at line %d", err, g.Len(), wantLine)
			}
		case err != nil:
			t.Fatalf("streamed fold failed where the whole fold did not: %v", err)
		case g.Len() != len(want):
			t.Fatalf("streamed fold: %d grants, want %d", g.Len(), len(want))
		default:
			for d := range want {
				if !g.Has(d) {
					t.Fatalf("streamed fold lost %s", d)
				}
			}
		}
	})
}
