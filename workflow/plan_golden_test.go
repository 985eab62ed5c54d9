package workflow

import "testing"

// planGolden is a workflow whose plan holds every kind of value a plan
// carries: typed inputs, YAML step arguments (integers, floats, strings
// with escapes, keys whose UTF-16 and byte orders disagree), a timeout.
const planGolden = `id: golden
side_effect: remote
inputs:
  - {name: repo, type: string, required: true}
  - {name: days, type: integer, default: 30}
  - {name: ratio, type: number, default: 0.1}
  - {name: dry, type: boolean, default: false}
  - {name: labels, type: array, default: []}
  - {name: meta, type: object, default: {}}
steps:
  - id: find
    tool: mcp_gh_search
    timeout_ms: 1500
    continue_on_error: true
    args:
      q: "repo:{{inputs.repo}} <&> \u2028 \t \"quoted\" \\ é"
      "\U0001F600": 1
      "\uFF61": 2
      big: 9007199254740991
      tiny: 1.5e-7
      huge: 1.0e+21
      neg: -42
      list: [1, 2.5, "x", null, true, {b: 1, a: 2}]
  - id: approve
    gate: "Go on with {{inputs.days}} days?"
outputs:
  total: "{{steps.find.structured.total}}"
`

// TestPlanIDIsStable pins plan ids computed before the canonical encoder
// moved to package canonjson: the same plan keeps its id across releases,
// so a --plan-id a person or machine reviewed still matches.
func TestPlanIDIsStable(t *testing.T) {
	w := loadOne(t, "golden", planGolden)
	servers := []PlanServer{ghServer, {Name: "docs", Transport: "http", URL: "https://docs.example/mcp?a=<b>&c", ToolsAllowlist: []string{"z", "a"}}}
	for _, tc := range []struct {
		name   string
		inputs map[string]any
		want   string
	}{
		{"defaults", map[string]any{"repo": "acme/app"}, "e044989cfef9e08be907a9089bd32c1732ab2a724627a2ce61db47f4f4d09aba"},
		{"every input", map[string]any{"repo": "ünï/\U0001F4C1\x01", "days": int64(9007199254740991), "ratio": 1e21, "dry": true,
			"labels": []any{"a", 1e-7, -0.5}, "meta": map[string]any{"\uFF61": 1.0, "\U0001F600": "x", "a": []any{}}}, "a191a23f891ed43d2c56da72932950dddf50662912d93afd1b7c033b678d3326"},
	} {
		p := planOf(t, w, tc.inputs, servers)
		if p.PlanID != tc.want {
			t.Errorf("%s: plan_id %s, want %s", tc.name, p.PlanID, tc.want)
		}
	}
}
