package invoke

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fields/fieldstest"
	"github.com/relavium/relavium/host/discovery"
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
			args, err := buildArgs("", []string{"v=" + c.Text}, def)
			if c.Err != "" {
				if err == nil || !strings.Contains(err.Error(), c.Err) {
					t.Fatalf("v=%q: %s, %v; want an error saying %q", c.Text, args, err, c.Err)
				}
				var coded interface{ Code() string }
				if !errors.As(err, &coded) || (coded.Code() != discovery.CodeInvalidArgs && coded.Code() != CodeNestedJSON) {
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
