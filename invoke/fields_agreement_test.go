package invoke

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/fields/fieldstest"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/cmd/mcp"
)

// admitCase admits the case's tool as discovery admits a server's tool.
func admitCase(t *testing.T, prop string) engine.ToolDef {
	t.Helper()
	cat, err := discovery.Discover(context.Background(), "srv", fieldstest.Lister(prop), discovery.Options{})
	if err != nil || len(cat.Tools) != 1 {
		t.Fatalf("admit %s: %v %+v", prop, err, cat)
	}
	discovery.Namespace([]*discovery.Catalogue{cat})
	return cat.Tools[0].Def
}

// mcp call KEY=VALUE types every case of the agreement table as the other
// surfaces do (tui and engine run the same table): the argument object
// holds Want exactly, or the call is refused naming why.
func TestKeyValueArgsAgreeWithEverySurface(t *testing.T) {
	for _, c := range fieldstest.Cases {
		t.Run(c.Name, func(t *testing.T) {
			def := admitCase(t, c.Prop)
			args, err := mcp.BuildArgs("", []string{"v=" + c.Text}, def)
			if c.Err != "" {
				if err == nil || !strings.Contains(err.Error(), c.Err) {
					t.Fatalf("v=%q: %s, %v; want an error saying %q", c.Text, args, err, c.Err)
				}
				var coded interface{ Code() fault.Code }
				if !errors.As(err, &coded) || (coded.Code() != discovery.CodeInvalidArgs && coded.Code() != cli.CodeNestedJSON) {
					t.Errorf("v=%q: %v is not E588 or the nesting code", c.Text, err)
				}
				return
			}
			var obj map[string]json.RawMessage
			if err != nil || json.Unmarshal(args, &obj) != nil || !fieldstest.SameJSON(obj["v"], c.Want) {
				t.Fatalf("v=%q: %s, %v; want v %s", c.Text, args, err, c.Want)
			}
		})
	}
}

// Through the built binary against a real server: mcp call types KEY=VALUE
// by the one rule, and what the server receives is exactly that. msg is
// ["string","null"] (3 stays "3", null is null), pt is a $ref to an object
// (sent as typed, member order kept), n is an integer: 2^53+1 is refused
// (E589: the validator cannot check it faithfully) rather than rounded to
// 2^53 and sent.
func TestKeyValueArgsReachTheServerAsTyped(t *testing.T) {
	e := newMCPE2E(t)
	e.declare(t, map[string]string{"typed": "typed"}, "")
	r := e.run(t, nil, "mcp", "ls", "--json")
	allow := allowFlags(r.pendingDigests(t))
	r = e.run(t, nil, append([]string{"mcp", "call", "mcp_typed_args", "--yes", "msg=3", `pt={"y":2,"x":1}`, "tags=[1, 2]"}, allow...)...)
	if r.code != 0 || r.stdout != `{"msg":"3","pt":{"y":2,"x":1},"tags":[1,2]}`+"\n" {
		t.Fatalf("exit %d, the server received %q\n%s", r.code, r.stdout, r.stderr)
	}
	r = e.run(t, nil, append([]string{"mcp", "call", "mcp_typed_args", "--yes", "msg=null", "n=42"}, allow...)...)
	if r.code != 0 || r.stdout != `{"msg":null,"n":42}`+"\n" {
		t.Fatalf("exit %d, the server received %q\n%s", r.code, r.stdout, r.stderr)
	}
	r = e.run(t, nil, append([]string{"mcp", "call", "mcp_typed_args", "--yes", "--json", "n=9007199254740993"}, allow...)...)
	if r.code != 2 || r.errCode() != discovery.CodeMalformedArgs || !strings.Contains(r.stdout, "9007199254740993") {
		t.Fatalf("2^53+1: exit %d %s\n%s", r.code, r.stdout, r.stderr)
	}
	// The listing reads the same fields: the union, the $ref's type.
	r = e.run(t, nil, append([]string{"mcp", "ls", "--json"}, allow...)...)
	if !strings.Contains(r.stdout, `{"name":"msg","type":"string|null"},{"name":"n","type":"integer"},{"name":"pt","type":"object"},{"name":"tags","type":"array"}`) {
		t.Fatalf("mcp ls args:\n%s", r.stdout)
	}
}
