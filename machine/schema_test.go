package machine

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/relavium/relavium/internal/golden"
	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/invoke/cli"
)

const schemaDir = "../testdata/machine/schemas"

// TestParamsSchemaSnapshots compares every exposed command's params schema
// with testdata/machine/schemas/<tool>.json (golden.Check:
// RELAVIUM_UPDATE_GOLDEN=1 rewrites them); a missing snapshot fails, and so
// does the snapshot of a tool no command exposes any more.
func TestParamsSchemaSnapshots(t *testing.T) {
	tab := invoke.Commands()
	var names []string
	for _, cmd := range Exposed(tab) {
		name := CommandToolName(cmd)
		got, err := json.MarshalIndent(ParamsSchema(tab, cmd), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		golden.Check(t, filepath.Join(schemaDir, name+".json"), append(got, '\n'))
	}
	golden.CheckDir(t, schemaDir, ".json", names)
}

func TestParamsSchemaValidates(t *testing.T) {
	tab := stubTable()
	s := ParamsSchema(tab, tab.Lookup([]string{"stub", "read"}))
	b, _ := json.Marshal(s)
	for _, want := range []string{`"$schema":"https://json-schema.org/draft/2020-12/schema"`, `"additionalProperties":false`,
		`"prefixItems":[`, `"default":3`, `"default":"1s"`, `"items":false`, `"writeOnly":true`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("schema lacks %s: %s", want, b)
		}
	}
	for _, hidden := range []string{`"stream"`, `"hidden"`, `"old"`, `"reveal"`, `"confirm"`, `"argv"`} {
		if strings.Contains(string(b), hidden) {
			t.Errorf("schema offers %s: %s", hidden, b)
		}
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	valid := []string{`{}`, `{"args":["-x"],"flags":{"tags":["a","b"],"quiet":true}}`, `{"args":["k","s"],"flags":{"count":2,"wait":"1m"}}`}
	invalid := []string{`{"extra":1}`, `{"args":["a","b","c"]}`, `{"flags":{"nope":1}}`, `{"flags":{"count":1.5}}`,
		`{"flags":{"mode":"z"}}`, `{"flags":{"tags":["a,b"]}}`, `{"flags":{"wait":"soon"}}`, `{"confirm":"` + strings.Repeat("a", 64) + `"}`}
	for _, v := range valid {
		var inst any
		_ = json.Unmarshal([]byte(v), &inst)
		if err := rs.Validate(inst); err != nil {
			t.Errorf("%s: %v", v, err)
		}
	}
	for _, v := range invalid {
		var inst any
		_ = json.Unmarshal([]byte(v), &inst)
		if err := rs.Validate(inst); err == nil {
			t.Errorf("%s validated", v)
		}
	}
	for _, p := range [][]string{{"stub", "remote"}, {"stub", "plan"}} {
		b, _ := json.Marshal(ParamsSchema(tab, tab.Lookup(p)))
		if !strings.Contains(string(b), `"confirm":{`) || strings.Contains(string(b), `"yes"`) || strings.Contains(string(b), `"plan-id"`) {
			t.Errorf("%v: confirm offered, consent flags hidden: %s", p, b)
		}
	}
	b, _ = json.Marshal(ParamsSchema(tab, tab.Lookup([]string{"stub", "words"})))
	if !strings.Contains(string(b), `"argv":{`) {
		t.Errorf("free-form leaf lacks argv: %s", b)
	}
	var back jsonschema.Schema
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
}

func TestCommandToolsAreDistinctAndAnnotated(t *testing.T) {
	tab := invoke.Commands()
	names := map[string]bool{}
	for _, cmd := range Exposed(tab) {
		tool := commandTool(tab, cmd)
		if names[tool.Name] {
			t.Errorf("duplicate tool name %s", tool.Name)
		}
		names[tool.Name] = true
		if !strings.HasPrefix(tool.Name, commandToolPrefix) || strings.HasPrefix(tool.Name, workflowToolPrefix) {
			t.Errorf("%s: command tools start with %q", tool.Name, commandToolPrefix)
		}
		if tool.Annotations == nil {
			t.Fatalf("%s: no annotations", tool.Name)
		}
		b, _ := json.Marshal(tool.Annotations)
		if !strings.Contains(string(b), `"readOnlyHint":`) {
			t.Errorf("%s: readOnlyHint not explicit: %s", tool.Name, b)
		}
		if tool.Annotations.ReadOnlyHint != (cmd.SideEffect == cli.Read && cmd.SideEffectFor == nil) {
			t.Errorf("%s: readOnlyHint %v for side effect %s", tool.Name, tool.Annotations.ReadOnlyHint, cmd.SideEffect)
		}
	}
	if !names["relavium-mcp-ls"] || !names["relavium-run"] || names["relavium-consent-revoke"] {
		t.Fatalf("tool names %v", names)
	}
}
