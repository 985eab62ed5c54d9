package machine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/invoke/cli"
)

// FuzzParseRequest: the parser never panics; whatever it accepts re-encodes
// to a request it accepts again with the same id; every refusal is E420.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{`{}`, `{"args":["-x"],"flags":{"tags":["a","b"],"quiet":true}}`, `{"args":["a"],"args":["b"]}`,
		`{"flags":{"n":1.5e3,"s":"v","l":[]}}`, `{"confirm":"` + strings.Repeat("a", 64) + `"}`, `null`, `{"argv":["--x"]}`, `{"a":{`} {
		f.Add([]byte(s))
	}
	cmd := stubTable().Lookup([]string{"stub", "read"})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRequest(data)
		if err != nil {
			if cli.CodeOf(err) != CodeInvalidRequest {
				t.Fatalf("refusal with code %s", cli.CodeOf(err))
			}
			return
		}
		flags := map[string]FlagValue{}
		for k, v := range r.Flags {
			flags[k] = v
		}
		doc := map[string]any{"args": append([]string{}, r.Args...), "argv": append([]string{}, r.Argv...), "flags": flags}
		if r.Confirm != "" {
			doc["confirm"] = r.Confirm
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		r2, err := ParseRequest(b)
		if err != nil {
			t.Fatalf("re-parse of %s: %v", b, err)
		}
		if RequestID("stub read", cmd, r) != RequestID("stub read", cmd, r2) {
			t.Fatalf("id changed across a round trip: %s", b)
		}
	})
}

// FuzzBuildArgv: whatever the builder accepts keeps every request value as
// exactly one element, after -- for positionals, with no NUL and within the
// size limits; flag names come only from the registry.
func FuzzBuildArgv(f *testing.F) {
	for _, s := range []string{`{"args":["-x"],"flags":{"tags":["a","b"],"quiet":true}}`, `{"args":["--project=/evil","--"]}`,
		`{"flags":{"names":["a=b","--yes"],"count":7}}`, `{"flags":{"mode":"a","wait":"1h"}}`, `{"argv":["-h"]}`} {
		f.Add([]byte(s), "stub read")
		f.Add([]byte(s), "stub words")
		f.Add([]byte(s), "stub plan")
	}
	tab := stubTable()
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		cmd := tab.Lookup(strings.Fields(path))
		if cmd == nil {
			return
		}
		r, err := ParseRequest(data)
		if err != nil {
			return
		}
		argv, err := BuildArgv(tab, cmd, r, "/p")
		if err != nil {
			if c := cli.CodeOf(err); c != CodeInvalidRequest && c != cli.CodeNotExposed && c != CodeInvokerFlag {
				t.Fatalf("refusal with code %s", c)
			}
			return
		}
		total := 0
		for _, a := range argv {
			if strings.IndexByte(a, 0) >= 0 || len(a) > MaxElementBytes {
				t.Fatalf("bad element %q", a)
			}
			total += len(a) + 1
		}
		if total > MaxArgvBytes {
			t.Fatal("argv over the limit")
		}
		n := len(cmd.Path)
		if strings.Join(argv[:n+2], " ") != cmd.Name()+" --json --project=/p" {
			t.Fatalf("head %q", argv[:n+2])
		}
		rest := argv[n+2:]
		dash := -1
		for i, a := range rest {
			if a == "--" {
				dash = i
				break
			}
			name, _, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
			if !strings.HasPrefix(a, "--") || !ok || cmd.Flag(name) == nil || invokerFlag(cmd, name) {
				t.Fatalf("flag element %q is not --name=value of an exposed flag", a)
			}
		}
		pos := r.Args
		if len(r.Argv) > 0 {
			pos = r.Argv
		}
		if len(pos) == 0 {
			if dash != -1 {
				t.Fatalf("-- without positionals: %q", argv)
			}
			return
		}
		if dash == -1 || strings.Join(rest[dash+1:], "\x00") != strings.Join(pos, "\x00") {
			t.Fatalf("positionals %q not verbatim after --: %q", pos, rest)
		}
	})
}
