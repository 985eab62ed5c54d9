package discovery

import (
	"context"
	"slices"
	"testing"
)

func discoverFake(t *testing.T, server string, tools ...string) *Catalogue {
	t.Helper()
	page := `{"tools":[`
	for i, n := range tools {
		if i > 0 {
			page += ","
		}
		page += `{"name":"` + n + `","inputSchema":{"type":"object"}}`
	}
	cat, err := Discover(context.Background(), server, fakeLister{"": page + `]}`}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func TestNamespaceIsRerunnable(t *testing.T) {
	gh := discoverFake(t, "gh", "search", "Issue")
	gh2 := discoverFake(t, "GH", "Search", "other")
	all := Namespace([]*Catalogue{gh, gh2})
	if len(all) != 2 || all[0].Def.Name != "mcp_gh_Issue" || all[1].Def.Name != "mcp_GH_other" {
		t.Fatalf("admitted %v", all)
	}
	if r := rows(gh); !slices.Equal(r, []string{"search=" + ReasonNameCollision}) {
		t.Errorf("gh rows %q", r)
	}
	// Run again unchanged: the same outcome, no duplicated rows.
	Namespace([]*Catalogue{gh, gh2})
	if len(gh.Skipped) != 1 || len(gh.Tools) != 1 {
		t.Fatalf("not idempotent: %d tools %d skipped", len(gh.Tools), len(gh.Skipped))
	}
	// GH leaves the session: gh's search is admitted again.
	all = Namespace([]*Catalogue{gh})
	if len(all) != 2 || len(gh.Skipped) != 0 || gh.PayloadBytes != gh.discoveredBytes {
		t.Fatalf("after GH left: %d admitted, rows %q", len(all), rows(gh))
	}
}
