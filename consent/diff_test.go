package consent

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestDiffTable(t *testing.T) {
	base := mustResolved("s", "/usr/bin/npx", []string{"-y", "srv@1"}, []EnvEntry{TagEnv("TOKEN", "{{secrets.t}}"), TagEnv("MODE", "a")}, "/w")
	grantOf := func(r *Resolved, kinds bool) *Grant {
		g := &Grant{Digest: r.Digest, Command: r.Command, Args: r.Args, EnvNames: r.EnvNames(), Cwd: r.Cwd,
			GrantedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		if kinds {
			for _, e := range r.Env {
				g.EnvKinds = append(g.EnvKinds, EnvKindOf{Name: e.Name, Kind: e.Kind})
			}
		}
		return g
	}
	for _, tc := range []struct {
		name  string
		now   *Resolved
		kinds bool
		lines []string
	}{
		{"command changed", mustResolved("s", "/opt/npx", base.Args, base.Env, "/w"), true,
			[]string{"- command /usr/bin/npx", "+ command /opt/npx"}},
		{"arg changed", mustResolved("s", base.Command, []string{"-y", "srv@2"}, base.Env, "/w"), true,
			[]string{"- args[1] srv@1", "+ args[1] srv@2"}},
		{"arg added", mustResolved("s", base.Command, []string{"-y", "srv@1", "--root=/"}, base.Env, "/w"), true,
			[]string{"+ args[2] --root=/"}},
		{"arg removed", mustResolved("s", base.Command, []string{"-y"}, base.Env, "/w"), true,
			[]string{"- args[1] srv@1"}},
		{"args shifted", mustResolved("s", base.Command, []string{"srv@1"}, base.Env, "/w"), true,
			[]string{"- args[0] -y", "+ args[0] srv@1", "- args[1] srv@1"}},
		{"env added", mustResolved("s", base.Command, base.Args, append(slices.Clone(base.Env), TagEnv("EXTRA", "1")), "/w"), true,
			[]string{"+ env EXTRA (literal)"}},
		{"env removed", mustResolved("s", base.Command, base.Args, base.Env[:1], "/w"), true,
			[]string{"- env MODE (literal)"}},
		{"env kind changed", mustResolved("s", base.Command, base.Args, []EnvEntry{TagEnv("TOKEN", "{{secrets.t}}"), TagEnv("MODE", "{{secrets.m}}")}, "/w"), true,
			[]string{"- env MODE (literal)", "+ env MODE (secret-ref)"}},
		{"env kind changed, writer recorded no kinds", mustResolved("s", base.Command, base.Args, []EnvEntry{TagEnv("TOKEN", "{{secrets.t}}"), TagEnv("MODE", "{{secrets.m}}")}, "/w"), false,
			[]string{"~ env: a different literal value or secret name (values are never stored; only the digest shows it)"}},
		{"only a literal value changed", mustResolved("s", base.Command, base.Args, []EnvEntry{TagEnv("TOKEN", "{{secrets.t}}"), TagEnv("MODE", "b")}, "/w"), true,
			[]string{"~ env: a different literal value or secret name (values are never stored; only the digest shows it)"}},
		{"secret swapped", mustResolved("s", base.Command, base.Args, []EnvEntry{TagEnv("TOKEN", "{{secrets.other}}"), TagEnv("MODE", "a")}, "/w"), true,
			[]string{"~ env: a different literal value or secret name (values are never stored; only the digest shows it)"}},
		{"cwd changed", mustResolved("s", base.Command, base.Args, base.Env, "/elsewhere"), true,
			[]string{"- cwd /w", "+ cwd /elsewhere"}},
		{"hostile arg is escaped", mustResolved("s", base.Command, []string{"-y", "srv@1\x1b[2K"}, base.Env, "/w"), true,
			[]string{"- args[1] srv@1", `+ args[1] $'srv@1\E[2K'`}},
		{"hostile env name is escaped", mustResolved("s", base.Command, base.Args, append(slices.Clone(base.Env), TagEnv("X\u202e", "1")), "/w"), true,
			[]string{`+ env $'X\u202e' (literal)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := DiffAgainst(tc.now, grantOf(base, tc.kinds))
			if got := d.Lines(); !slices.Equal(got, tc.lines) {
				t.Fatalf("lines\n got %q\nwant %q", got, tc.lines)
			}
			var b strings.Builder
			if err := d.WriteText(&b, "  "); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(b.String(), "  changes since the grant of 2026-01-01T00:00:00.000Z ("+base.Digest+"):\n") {
				t.Fatalf("text rendering: %q", b.String())
			}
		})
	}
	first := DiffAgainst(base, nil)
	if first.Previous != nil || len(first.Changes) != 0 || !strings.Contains(first.Lines()[0], "first approval") {
		t.Fatalf("first approval diff: %+v", first)
	}
}

// The diff compares a server only with an earlier grant of the same server
// identity: the same declared name and cwd (whatever the command became),
// or, for a grant that recorded no name, the same command and cwd. Another
// program in the same folder is never compared: that is a first approval.
func TestClosestGrant(t *testing.T) {
	r := mustResolved("s", "/bin/srv", []string{"new"}, nil, "/w")
	g := func(line int, server, command, cwd string, day int) *Grant {
		return &Grant{Digest: mustResolved("x", command, []string{string(rune('a' + line))}, nil, cwd).Digest,
			Server: server, Command: command, Cwd: cwd, GrantedAt: time.Date(2026, 1, day, 0, 0, 0, 0, time.UTC), Line: line}
	}
	build := func(gs ...*Grant) *Grants {
		out := &Grants{byDigest: map[string]*Grant{}}
		for _, x := range gs {
			out.byDigest[x.Digest] = x
		}
		return out
	}
	sameNameOld := g(1, "s", "/bin/srv", "/w", 1)
	sameNameNewCmd := g(2, "s", "/usr/bin/sh", "/w", 2) // the command changed under the same name: compared
	sameNameOtherCwd := g(3, "s", "/bin/srv", "/elsewhere", 9)
	otherNameSameCmd := g(4, "t", "/bin/srv", "/w", 10)
	otherProgram := g(5, "u", "/bin/sh", "/w", 11) // the /bin/sh-against-node case
	legacySame := g(6, "", "/bin/srv", "/w", 3)
	legacyOtherCmd := g(7, "", "/bin/other", "/w", 12)
	for _, tc := range []struct {
		name string
		gs   *Grants
		want *Grant
	}{
		{"same name and cwd, newest", build(sameNameOld, sameNameNewCmd, sameNameOtherCwd, otherNameSameCmd, otherProgram), sameNameNewCmd},
		{"another name is another server", build(otherNameSameCmd, otherProgram, sameNameOtherCwd), nil},
		{"an unnamed grant of the same program", build(legacySame, legacyOtherCmd, otherProgram), legacySame},
		{"an unnamed grant of another program", build(legacyOtherCmd), nil},
		{"newest of named and unnamed", build(sameNameOld, legacySame), legacySame},
		{"its own grant is not earlier", build(&Grant{Digest: r.Digest, Server: "s", Command: r.Command, Cwd: r.Cwd}), nil},
	} {
		if got := tc.gs.Closest(r); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestDiffLinesQuoteStoredKinds: an env kind read back from the store is
// text from a file (another host, a hand edit), not one of relavium's two
// words; the diff the prompt and headless output show must render it
// escaped, so a control sequence in it can neither recolour nor hide lines.
func TestDiffLinesQuoteStoredKinds(t *testing.T) {
	now := mustResolved("s", "/bin/x", nil, []EnvEntry{TagEnv("A", "v")}, "/w")
	prev := &Grant{Digest: "v1:" + strings.Repeat("0", 64), Command: "/bin/x", Args: []string{}, EnvNames: []string{"A", "B"},
		EnvKinds: []EnvKindOf{{Name: "A", Kind: "\x1b[2Jsecret-ref"}, {Name: "B", Kind: "\x1b]0;x\a"}}, Cwd: "/w"}
	lines := DiffAgainst(now, prev).Lines()
	if len(lines) != 3 {
		t.Fatalf("want a changed kind (2 lines) and a removed name, got %q", lines)
	}
	for _, l := range lines {
		if strings.ContainsAny(l, "\x1b\a") {
			t.Errorf("diff line carries a raw control character: %q", l)
		}
	}
	if !slices.Contains(lines, `- env A ($'\E[2Jsecret-ref')`) || !slices.Contains(lines, "+ env A (literal)") {
		t.Errorf("the stored kind must be shown escaped beside the current one: %q", lines)
	}
}
