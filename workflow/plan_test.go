package workflow

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
)

func planOf(t *testing.T, w *Workflow, inputs map[string]any, servers []PlanServer) *WorkflowPlan {
	t.Helper()
	in, err := w.ResolveInputs(inputs)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Plan(w, in, servers)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var ghServer = PlanServer{Name: "gh", Transport: "stdio", CommandLine: "/usr/bin/gh-mcp", Digest: "v1:" + strings.Repeat("a", 64)}

func TestPlanIDIsTheSHA256OfTheCanonicalPlan(t *testing.T) {
	w := loadOne(t, "close", closeStale)
	p := planOf(t, w, map[string]any{"repo": "acme/app"}, []PlanServer{ghServer})
	if !p.RequiresConfirmation {
		t.Fatal("destructive + gate must require confirmation")
	}
	body := *p
	body.PlanID = ""
	canon, err := canonicalPlan(&body)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(canon)
	if p.PlanID != hex.EncodeToString(sum[:]) {
		t.Fatalf("plan_id %s is not sha256(canonical)", p.PlanID)
	}
	if !strings.HasPrefix(string(canon), `{"digests":["v1:aaaa`) || !strings.HasSuffix(string(canon), `"workflow":"close"}`) {
		t.Fatalf("canonical form: %s", canon)
	}
	// Same inputs, same servers: same id; map order and server order do not matter.
	again := planOf(t, w, map[string]any{"repo": "acme/app", "days": int64(30)}, []PlanServer{ghServer})
	if again.PlanID != p.PlanID {
		t.Fatal("the plan id is not deterministic")
	}
	if err := p.Check(again.PlanID); err != nil {
		t.Fatal(err)
	}
}

func TestPlanIDMovesWhenAnythingMoves(t *testing.T) {
	w := loadOne(t, "close", closeStale)
	base := planOf(t, w, map[string]any{"repo": "acme/app"}, []PlanServer{ghServer})
	moved := ghServer
	moved.Digest = "v1:" + strings.Repeat("b", 64)
	narrowed := ghServer
	narrowed.ToolsAllowlist = []string{"search"}
	edited := strings.Replace(closeStale, "updated:<", "updated:>", 1)
	readOnly := strings.Replace(closeStale, "side_effect: destructive", "side_effect: write", 1)
	variants := map[string]*WorkflowPlan{
		"input":       planOf(t, w, map[string]any{"repo": "acme/other"}, []PlanServer{ghServer}),
		"default":     planOf(t, w, map[string]any{"repo": "acme/app", "days": int64(31)}, []PlanServer{ghServer}),
		"digest":      planOf(t, w, map[string]any{"repo": "acme/app"}, []PlanServer{moved}),
		"allowlist":   planOf(t, w, map[string]any{"repo": "acme/app"}, []PlanServer{narrowed}),
		"server set":  planOf(t, w, map[string]any{"repo": "acme/app"}, []PlanServer{ghServer, {Name: "docs", Transport: "http", URL: "https://docs.example/mcp"}}),
		"step args":   planOf(t, loadOne(t, "close", edited), map[string]any{"repo": "acme/app"}, []PlanServer{ghServer}),
		"side effect": planOf(t, loadOne(t, "close", readOnly), map[string]any{"repo": "acme/app"}, []PlanServer{ghServer}),
	}
	for name, v := range variants {
		if v.PlanID == base.PlanID {
			t.Errorf("%s moved but the plan id did not", name)
		}
		err := v.Check(base.PlanID)
		codeIs(t, err, CodePlanChanged)
		if ExitOf(err) != 2 {
			t.Fatalf("E450 exit %d", ExitOf(err))
		}
		var e *engine.Error
		_ = errorsAs(err, &e)
		if e.Extra["plan_id"] != v.PlanID || e.Extra["expected_plan_id"] != base.PlanID {
			t.Fatalf("E450 data %+v", e.Extra)
		}
	}
}

func errorsAs(err error, e **engine.Error) bool {
	x, ok := err.(*engine.Error)
	*e = x
	return ok
}

func TestPlanRequiresConfirmation(t *testing.T) {
	for src, want := range map[string]bool{
		"id: p\nside_effect: read\nsteps: [{id: a, tool: mcp_s_t}]\n":        false,
		"id: p\nside_effect: write\nsteps: [{id: a, tool: mcp_s_t}]\n":       false,
		"id: p\nside_effect: remote\nsteps: [{id: a, tool: mcp_s_t}]\n":      true,
		"id: p\nside_effect: destructive\nsteps: [{id: a, tool: mcp_s_t}]\n": true,
		"id: p\nside_effect: read\nsteps: [{id: a, gate: ok}]\n":             true,
	} {
		p := planOf(t, loadOne(t, "p", src), nil, nil)
		if p.RequiresConfirmation != want {
			t.Errorf("%q: requires_confirmation %v", src, p.RequiresConfirmation)
		}
		var doc map[string]any
		b, _ := json.Marshal(p)
		_ = json.Unmarshal(b, &doc)
		for _, k := range []string{"plan_id", "requires_confirmation", "steps", "servers", "digests"} {
			if _, ok := doc[k]; !ok {
				t.Fatalf("plan JSON lacks %s: %s", k, b)
			}
		}
	}
}

func TestPlanHumanRendering(t *testing.T) {
	w := loadOne(t, "close", closeStale)
	p := planOf(t, w, map[string]any{"repo": "acme/app"}, []PlanServer{ghServer})
	var b strings.Builder
	if err := p.WriteHuman(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"plan for workflow close (side effect: destructive)", "repo = \"acme/app\"", ghServer.Digest, "gate  Close {{steps.find.structured.total}}", "plan_id: " + p.PlanID} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in:\n%s", want, b.String())
		}
	}
}

// TestCanonicalPlan: the plan is hashed in canonical JSON (package
// canonjson) with encoding/json's field names and omissions; a value with no
// faithful form is refused rather than rounded into another plan's id.
func TestCanonicalPlan(t *testing.T) {
	w := loadOne(t, "p", "id: p\nside_effect: read\nsteps: [{id: a, tool: mcp_s_t}]\n")
	p, err := Plan(w, map[string]any{"b": 1, "a": "<&>\u2028\n\x01", "\ue000": 1, "\U0001F600": 2,
		"nested": map[string]any{"z": []any{true, nil}, "y": 1.5, "n": -0.0}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := *p
	body.PlanID = ""
	got, err := canonicalPlan(&body)
	if err != nil {
		t.Fatal(err)
	}
	// keys by UTF-16 code units: a < b < nested < U+1F600 (D83D…) < U+E000;
	// empty optional fields (outputs, a step's gate) are omitted.
	want := "{\"digests\":[],\"inputs\":{\"a\":\"<&>\u2028\\n\\u0001\",\"b\":1,\"nested\":{\"n\":0,\"y\":1.5,\"z\":[true,null]},\"\U0001F600\":2,\"\ue000\":1}," +
		"\"requires_confirmation\":false,\"servers\":[],\"side_effect\":\"read\",\"steps\":[{\"id\":\"a\",\"kind\":\"tool\",\"tool\":\"mcp_s_t\"}],\"workflow\":\"p\"}"
	if string(got) != want {
		t.Fatalf("canonical\n got %s\nwant %s", got, want)
	}
	sum := sha256.Sum256(got)
	if p.PlanID != hex.EncodeToString(sum[:]) {
		t.Fatal("plan_id is not the hash of the canonical plan")
	}

	_, err = Plan(w, map[string]any{"n": int64(1<<53 + 1)}, nil)
	codeIs(t, err, engine.CodeRunOptions)
	if !strings.Contains(err.Error(), "$.inputs.n: the integer 9007199254740993 is written 9007199254740992 by JavaScript") {
		t.Fatalf("refusal does not say where and why: %v", err)
	}
}
