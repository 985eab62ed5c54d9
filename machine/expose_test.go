package machine

import (
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/relavium/relavium/internal/projectfiles"
	"github.com/relavium/relavium/invoke"
)

func TestExposedCommandsOfRelavium(t *testing.T) {
	var got []string
	for _, c := range Exposed(invoke.Commands()) {
		got = append(got, c.Name())
	}
	sort.Strings(got)
	want := []string{"config validate", "consent digest", "consent ls", "mcp call", "mcp ls", "run", "version", "workflow ls"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("exposed %q\nwant    %q", got, want)
	}
	tab := invoke.Commands()
	for _, p := range [][]string{{"consent", "grant"}, {"consent", "revoke"}, {"mcp", "serve"}, {"session"}, {"demo"}, {"help"}, {"mcp"}} {
		_, err := Exposure(tab.Lookup(p), &Request{}, TransportMCPStdio, t.TempDir())
		if invoke.CodeOf(err) != invoke.CodeNotExposed {
			t.Errorf("%v: want E421, got %v", p, err)
		}
	}
}

func TestExposureRules(t *testing.T) {
	tab := stubTable()
	cases := []struct {
		path, req string
		transport Transport
		wantSide  invoke.SideEffect
		reason    string // "" = exposed
	}{
		{"stub read", `{}`, TransportMCPStdio, invoke.Read, ""},
		{"stub read", `{"flags":{"stream":true}}`, TransportMCPHTTP, invoke.Read, "stream output is served only as HTTP NDJSON"},
		{"stub read", `{"flags":{"stream":true}}`, TransportHTTPNDJSON, invoke.Read, ""},
		{"stub read", `{"flags":{"stream":false}}`, TransportMCPHTTP, invoke.Read, ""},
		{"stub read", `{"flags":{"nuke":true}}`, TransportMCPHTTP, invoke.Destructive, "no gate"},
		{"stub read", `{"flags":{"nuke":true,"stream":true}}`, TransportHTTPNDJSON, invoke.Destructive, "only for a read"},
		{"stub read", `{"flags":{"nuke":false}}`, TransportMCPHTTP, invoke.Read, ""},
		{"stub remote", `{}`, TransportMCPSSE, invoke.Remote, ""},
		{"stub destroy", `{}`, TransportMCPSSE, invoke.Destructive, "no gate"},
		{"stub cli", `{}`, TransportMCPSSE, invoke.Read, "cli-only"},
		{"stub", `{}`, TransportMCPSSE, "", "not runnable"},
	}
	for _, c := range cases {
		r, _ := ParseRequest([]byte(c.req))
		v, err := Exposure(tab.Lookup(strings.Fields(c.path)), r, c.transport, "")
		if c.reason == "" {
			if err != nil || v.SideEffect != c.wantSide {
				t.Errorf("%s %s: %v %v", c.path, c.req, v, err)
			}
			continue
		}
		var e *invoke.Error
		if !errors.As(err, &e) || e.ErrCode != invoke.CodeNotExposed || !strings.Contains(e.Cause.Error(), c.reason) {
			t.Errorf("%s %s over %s: want E421 %q, got %v", c.path, c.req, c.transport, c.reason, err)
		}
		if c.wantSide != "" && v.SideEffect != c.wantSide {
			t.Errorf("%s %s: effective side effect %s, want %s", c.path, c.req, v.SideEffect, c.wantSide)
		}
	}
	hidden := &invoke.Command{Path: []string{"h"}, Hidden: true, JSON: true, Run: runStubNoop}
	dep := &invoke.Command{Path: []string{"d"}, Deprecated: true, JSON: true, Run: runStubNoop}
	nojson := &invoke.Command{Path: []string{"n"}, Run: runStubNoop}
	for _, c := range []*invoke.Command{hidden, dep, nojson} {
		if _, err := Exposure(c, nil, TransportMCPStdio, ""); invoke.CodeOf(err) != invoke.CodeNotExposed {
			t.Errorf("%s: want E421, got %v", c.Name(), err)
		}
	}
}

func TestExposureSideEffectForFailsClosed(t *testing.T) {
	cmd := &invoke.Command{Path: []string{"x"}, JSON: true, Output: invoke.Document, Surface: invoke.Machine, SideEffect: invoke.Write, Run: runStubNoop,
		SideEffectFor: func(string, []string) (invoke.SideEffect, error) { return "", errors.New("unreadable") }}
	if _, err := Exposure(cmd, &Request{}, TransportMCPStdio, ""); invoke.CodeOf(err) != invoke.CodeNotExposed {
		t.Fatalf("an unclassifiable request without a confirm block must be refused, got %v", err)
	}
	cmd.Confirm = &invoke.Confirm{Consent: []string{"yes"}}
	v, err := Exposure(cmd, &Request{}, TransportMCPStdio, "")
	if err != nil || v.SideEffect != invoke.Destructive {
		t.Fatalf("got %v %v, want destructive", v, err)
	}
}

func TestRunTakesTheWorkflowSideEffect(t *testing.T) {
	project := t.TempDir()
	projectfiles.Workflow(t, project, "wipe", "destructive", "")
	projectfiles.Workflow(t, project, "peek", "read", "")
	run := invoke.Commands().Lookup([]string{"run"})
	for id, want := range map[string]invoke.SideEffect{"wipe": invoke.Destructive, "peek": invoke.Read, "missing": invoke.Destructive} {
		v, err := Exposure(run, &Request{Args: []string{id}}, TransportMCPStdio, project)
		if err != nil || v.SideEffect != want {
			t.Errorf("run %s: %v %v, want %s", id, v, err, want)
		}
	}
}
