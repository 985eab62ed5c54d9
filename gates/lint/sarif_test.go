package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The SARIF log of every fixture (suppressed and located findings
// included) is valid against the SARIF 2.1.0 schema (OASIS errata 01,
// vendored in testdata), formats asserted.
func TestSARIFValidatesAgainstTheSchema(t *testing.T) {
	raw, err := os.ReadFile("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	var defs []Def
	for _, fx := range positives {
		defs = append(defs, Def{Kind: fx.kind, Name: fx.name, Raw: []byte(fx.raw)})
	}
	defs = append(defs, Def{Kind: KindTool, Name: "bad\u202ename", Skipped: "bidi_char"})
	located := bank
	located.Source, located.SourceLine = ".relavium/config.toml", 3
	r := Run([]Server{{Name: "notes", Source: ".relavium/config.toml", SourceLine: 3, Defs: defs}, located},
		[]Suppression{{Server: "notes", Rule: RuleURL, Tool: "doc", Reason: "links to our docs"}})
	out, err := r.SARIF("1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("the SARIF log is not valid 2.1.0: %v\n%s", err, out)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Results []struct {
				RuleID       string
				Suppressions []struct{ Justification string }
				Locations    []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(out, &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Tool.Driver.Rules) != len(Rules()) {
		t.Fatalf("log %v", err)
	}
	suppressed := 0
	for _, res := range log.Runs[0].Results {
		if len(res.Suppressions) > 0 {
			suppressed++
		}
		if l := res.Locations[0].PhysicalLocation; l.ArtifactLocation.URI != ".relavium/config.toml" || l.Region.StartLine != 3 {
			t.Errorf("result %s located at %+v", res.RuleID, l)
		}
	}
	if suppressed != 1 || len(log.Runs[0].Results) < len(positives) || strings.Contains(string(out), "\u202e") {
		t.Fatalf("%d results, %d suppressed", len(log.Runs[0].Results), suppressed)
	}

	// The schema rejects a log that is not SARIF (the check is real).
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":"2.1.0","runs":[{"results":[]}]}`))
	if sch.Validate(bad) == nil {
		t.Fatal("the schema accepted a run without a tool")
	}
}
