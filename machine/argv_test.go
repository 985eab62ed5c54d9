package machine

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/invoke/cli"
)

func argvFor(t *testing.T, path, req string) ([]string, error) {
	t.Helper()
	tab := stubTable()
	r, err := ParseRequest([]byte(req))
	if err != nil {
		t.Fatalf("parse %s: %v", req, err)
	}
	return BuildArgv(tab, tab.Lookup(strings.Fields(path)), r, "/p")
}

// TestBuildArgvDocExample is the worked example of docs/machine-invoker.md
// "The machine request".
func TestBuildArgvDocExample(t *testing.T) {
	got, err := argvFor(t, "stub read", `{"args":["-x"],"flags":{"tags":["a","b"],"quiet":true}}`)
	if err != nil {
		t.Fatal(err)
	}
	want := "stub read --json --project=/p --quiet=true --tags=a --tags=b -- -x"
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %q\nwant %q", strings.Join(got, " "), want)
	}
}

func TestBuildArgvRendering(t *testing.T) {
	cases := []struct{ req, want string }{
		{`{}`, "stub read --json --project=/p"},
		{`{"flags":{"quiet":false}}`, "stub read --json --project=/p --quiet=false"},
		{`{"flags":{"count":2.0,"mode":"b","wait":"1m30s"}}`, "stub read --json --project=/p --count=2 --mode=b --wait=1m30s"},
		{`{"flags":{"names":["a,b","c\"d","e\nf"]}}`, "stub read --json --project=/p --names=a,b --names=c\"d --names=e\nf"},
		{`{"flags":{"tags":[]}}`, "stub read --json --project=/p"},
		{`{"args":["--json","--project=/evil"]}`, "stub read --json --project=/p -- --json --project=/evil"},
		{`{"flags":{"api-key":"--yes"}}`, "stub read --json --project=/p --api-key=--yes"},
	}
	for _, c := range cases {
		got, err := argvFor(t, "stub read", c.req)
		if err != nil {
			t.Fatalf("%s: %v", c.req, err)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s\n got %q\nwant %q", c.req, strings.Join(got, " "), c.want)
		}
	}
}

func TestBuildArgvRefusals(t *testing.T) {
	big := strings.Repeat("a", MaxElementBytes+1)
	many := `"` + strings.Repeat("a", 30<<10) + `"`
	cases := []struct {
		path, req string
		code      fault.Code
		msg       string
	}{
		{"stub read", `{"flags":{"count":1.5}}`, CodeInvalidRequest, `flag "count" must be an integer`},
		{"stub read", `{"flags":{"count":"2"}}`, CodeInvalidRequest, `flag "count" must be an integer`},
		{"stub read", `{"flags":{"quiet":"true"}}`, CodeInvalidRequest, `flag "quiet" must be a boolean`},
		{"stub read", `{"flags":{"mode":"c"}}`, CodeInvalidRequest, `flag "mode" must be one of`},
		{"stub read", `{"flags":{"wait":"soon"}}`, CodeInvalidRequest, `flag "wait" must be a duration`},
		{"stub read", `{"flags":{"tags":"a"}}`, CodeInvalidRequest, `flag "tags" must be an array`},
		{"stub read", `{"flags":{"tags":["a,b"]}}`, CodeInvalidRequest, "comma, quote or newline"},
		{"stub read", `{"flags":{"tags":["a\"b"]}}`, CodeInvalidRequest, "comma, quote or newline"},
		{"stub read", `{"flags":{"tags":["a\nb"]}}`, CodeInvalidRequest, "comma, quote or newline"},
		{"stub read", `{"flags":{"nope":true}}`, CodeInvalidRequest, `flag "nope" is unknown or not exposed`},
		{"stub read", `{"flags":{"hidden":true}}`, CodeInvalidRequest, "not exposed"},
		{"stub read", `{"flags":{"old":true}}`, CodeInvalidRequest, "not exposed"},
		{"stub read", `{"flags":{"reveal":true}}`, CodeInvalidRequest, "not exposed"},
		{"stub read", `{"flags":{"stream":true}}`, CodeInvalidRequest, "not exposed"},
		{"stub read", `{"flags":{"json":true}}`, CodeInvalidRequest, "not exposed"},
		{"stub read", `{"flags":{"project":"/x"}}`, CodeInvalidRequest, "not exposed"},
		{"stub read", `{"args":["a","b","c"]}`, CodeInvalidRequest, "too many args"},
		{"stub remote", `{}`, CodeInvalidRequest, "too few args"},
		{"stub remote", `{"args":["x"],"flags":{"yes":true}}`, CodeInvokerFlag, "belongs to the invoker"},
		{"stub plan", `{"args":["x"],"flags":{"plan-id":"a"}}`, CodeInvokerFlag, "belongs to the invoker"},
		{"stub plan", `{"args":["x"],"flags":{"plan":true}}`, CodeInvokerFlag, "belongs to the invoker"},
		{"stub read", `{"args":["a\u0000b"]}`, CodeInvalidRequest, "NUL byte"},
		{"stub read", `{"flags":{"mode":"a\u0000"}}`, CodeInvalidRequest, "one of"},
		{"stub read", `{"flags":{"names":["x\u0000"]}}`, CodeInvalidRequest, "NUL byte"},
		{"stub read", `{"args":["` + big + `"]}`, CodeInvalidRequest, "longer than"},
		{"stub write", `{"args":[` + strings.Repeat(many+",", 4) + many + `]}`, CodeInvalidRequest, "bytes in all"},
		{"stub read", `{"confirm":"` + strings.Repeat("0", 64) + `"}`, CodeInvalidRequest, "confirm is only for commands with a confirm block"},
		{"stub read", `{"argv":["x"]}`, cli.CodeNotExposed, "argv is only for a leaf"},
		{"stub words", `{"argv":["--project=/x"]}`, CodeInvalidRequest, "names a root flag"},
		{"stub words", `{"argv":["-h"]}`, CodeInvalidRequest, "names a root flag"},
		{"stub words", `{"argv":["a"],"args":["b"]}`, CodeInvalidRequest, "takes argv, not args or flags"},
		{"stub words", `{"argv":["a\u0000"]}`, CodeInvalidRequest, "NUL byte"},
	}
	for _, c := range cases {
		_, err := argvFor(t, c.path, c.req)
		if err == nil {
			t.Errorf("%s %.80s: accepted", c.path, c.req)
			continue
		}
		if cli.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s %.80s: got %v, want %s containing %q", c.path, c.req, err, c.code, c.msg)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("echoed a value: %v", err)
		}
	}
}

func TestBuildArgvFreeFormLeaf(t *testing.T) {
	got, err := argvFor(t, "stub words", `{"argv":["--force","x y"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != "stub|words|--json|--project=/p|--|--force|x y" {
		t.Fatalf("got %q", got)
	}
}

func TestBuildArgvInvokerFlags(t *testing.T) {
	tab := stubTable()
	cmd := tab.Lookup([]string{"stub", "plan"})
	r, _ := ParseRequest([]byte(`{"args":["w"],"flags":{"input":["a=1"]}}`))
	got, err := buildArgv(tab, cmd, r, "/p", argvPlan{consent: true, planID: strings.Repeat("c", 64)})
	if err != nil {
		t.Fatal(err)
	}
	want := "stub plan --json --project=/p --input=a=1 --plan-id=" + strings.Repeat("c", 64) + " --yes=true -- w"
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %q\nwant %q", strings.Join(got, " "), want)
	}
	got, _ = buildArgv(tab, cmd, r, "/p", argvPlan{plan: true})
	if strings.Join(got, " ") != "stub plan --json --project=/p --input=a=1 --plan=true -- w" {
		t.Fatalf("plan form %q", got)
	}
}
