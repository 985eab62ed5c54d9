package urlref

import (
	"strings"
	"testing"
)

func TestURLRefsSaysWhereEachReferenceSits(t *testing.T) {
	type ref struct {
		text            string
		origin, carried bool
	}
	good := []struct {
		url  string
		want []ref
	}{
		{"https://api.example.com/mcp", nil},
		{"{{env.MCP_URL}}", []ref{{"{{env.MCP_URL}}", true, false}}},
		{"{{env.MCP_URL:-https://api.example.com}}/mcp", []ref{{"{{env.MCP_URL}}", true, false}}},
		{"{{env.BASE}}?key={{env.KEY}}", []ref{{"{{env.BASE}}", true, false}, {"{{env.KEY}}", false, true}}},
		{"http://localhost:{{env.PORT}}/mcp", []ref{{"{{env.PORT}}", true, false}}},
		{"https://{{env.HOST}}/mcp", []ref{{"{{env.HOST}}", true, false}}},
		{"https://{{env.HOST}}:8443/mcp", []ref{{"{{env.HOST}}", true, false}}},
		{"https://{{env.HOST}}:{{env.PORT}}", []ref{{"{{env.HOST}}", true, false}, {"{{env.PORT}}", true, false}}},
		{"https://api.example.com/mcp?key={{env.API_KEY}}", []ref{{"{{env.API_KEY}}", false, true}}},
		{"https://api.example.com/{{env.TEAM}}/mcp", []ref{{"{{env.TEAM}}", false, true}}},
		{"https://api.example.com/mcp?k={{secrets.api.key}}&x=1", []ref{{"{{secrets.api.key}}", false, true}}},
		{"https://api.example.com#{{env.FRAG}}", []ref{{"{{env.FRAG}}", false, true}}},
		{"https://{{env.TENANT}}.example.com/mcp", []ref{{"{{env.TENANT}}", true, true}}},
		{"https://{{secrets.domain}}/mcp_server/sse", []ref{{"{{secrets.domain}}", true, false}}},
		{"https://mcp-{{env.REGION}}.{{env.ZONE}}.example.com:{{env.PORT}}/x", []ref{{"{{env.REGION}}", true, true}, {"{{env.ZONE}}", true, true}, {"{{env.PORT}}", true, false}}},
	}
	for _, c := range good {
		refs, err := Read(c.url)
		if err != nil {
			t.Errorf("Read(%q): %v", c.url, err)
			continue
		}
		if len(refs) != len(c.want) {
			t.Errorf("Read(%q) = %d refs, want %d", c.url, len(refs), len(c.want))
			continue
		}
		for i, r := range refs {
			typed := r.Secret != "" && r.Origin
			if w := c.want[i]; r.Text() != w.text || r.Origin != w.origin || r.Carried != w.carried || r.TypedHost != typed || c.url[r.Start:r.End] == "" {
				t.Errorf("Read(%q)[%d] = %s origin %v carried %v, want %+v", c.url, i, r.Text(), r.Origin, r.Carried, w)
			}
		}
	}
	bad := []struct{ url, why string }{
		{"https://api.example.com:80{{env.X}}/mcp", "only part"},
		{"{{env.SCHEME}}://api.example.com/mcp", "whole scheme://host"},
		{"http{{env.S}}://api.example.com/mcp", "scheme"},
		{"{{env.A}}{{env.B}}/mcp", "whole scheme://host"},
		{"https://{{env.USER}}@api.example.com/mcp", "user info"},
		{"https://u:{{secrets.pw}}@api.example.com/mcp", "user info"},
		{"https://{{secrets.host}}:{{secrets.port}}/mcp", "a secret never chooses"},
		{"https://x-{{secrets.h}}.example.com/mcp", "a secret never chooses"},
		{"{{secrets.url}}", "a secret never chooses"},
		{"https://[{{env.V6}}]/mcp", "only part"},
		{"https://api.example.com/{{env.X", "whole"},
		{"https://api.example.com/{{other.X}}", "whole"},
		{"https://api.example.com/}}", "whole"},
		{"api.example.com/{{env.X}}", "scheme://"},
	}
	for _, c := range bad {
		_, err := Read(c.url)
		if err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("Read(%q) = %v, want a refusal saying %q", c.url, err, c.why)
		}
	}
}

func TestExpandURLNamesEveryMissingValue(t *testing.T) {
	u := "{{env.BASE:-https://a.example}}/x/{{env.TEAM}}?k={{secrets.k}}"
	refs, err := Read(u)
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]string{"env.BASE": "https://b.example", "k": "s3cr3t"}
	out, missing := Expand(u, refs, func(r Ref) (string, bool) {
		key := r.BindingName()
		v, ok := vals[key]
		return v, ok
	})
	if len(missing) != 1 || missing[0].Name != "TEAM" {
		t.Fatalf("missing = %+v, want TEAM", missing)
	}
	vals["env.TEAM"] = "core"
	out, missing = Expand(u, refs, func(r Ref) (string, bool) { v, ok := vals[r.BindingName()]; return v, ok })
	if want := "https://b.example/x/core?k=s3cr3t"; out != want || missing != nil {
		t.Fatalf("Expand = %q %v, want %q", out, missing, want)
	}
	if refs[1].BindingName() != "env.TEAM" || refs[2].BindingName() != "k" {
		t.Fatalf("binding names %q %q", refs[1].BindingName(), refs[2].BindingName())
	}
}
