package machine

import (
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/relavium/relavium/internal/projectfiles"
	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/invoke/cli"
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
		if cli.CodeOf(err) != cli.CodeNotExposed {
			t.Errorf("%v: want E421, got %v", p, err)
		}
	}
}

func TestExposureRules(t *testing.T) {
	tab := stubTable()
	cases := []struct {
		path, req string
		transport Transport
		wantSide  cli.SideEffect
		reason    string // "" = exposed
	}{
		{"stub read", `{}`, TransportMCPStdio, cli.Read, ""},
		{"stub read", `{"flags":{"stream":true}}`, TransportMCPHTTP, cli.Read, "stream output is served only as HTTP NDJSON"},
		{"stub read", `{"flags":{"stream":true}}`, TransportHTTPNDJSON, cli.Read, ""},
		{"stub read", `{"flags":{"stream":false}}`, TransportMCPHTTP, cli.Read, ""},
		{"stub read", `{"flags":{"nuke":true}}`, TransportMCPHTTP, cli.Destructive, "no gate"},
		{"stub read", `{"flags":{"nuke":true,"stream":true}}`, TransportHTTPNDJSON, cli.Destructive, "only for a read"},
		{"stub read", `{"flags":{"nuke":false}}`, TransportMCPHTTP, cli.Read, ""},
		{"stub remote", `{}`, TransportMCPSSE, cli.Remote, ""},
		{"stub destroy", `{}`, TransportMCPSSE, cli.Destructive, "no gate"},
		{"stub cli", `{}`, TransportMCPSSE, cli.Read, "cli-only"},
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
		var e *cli.Error
		if !errors.As(err, &e) || e.ErrCode != cli.CodeNotExposed || !strings.Contains(e.Cause.Error(), c.reason) {
			t.Errorf("%s %s over %s: want E421 %q, got %v", c.path, c.req, c.transport, c.reason, err)
		}
		if c.wantSide != "" && v.SideEffect != c.wantSide {
			t.Errorf("%s %s: effective side effect %s, want %s", c.path, c.req, v.SideEffect, c.wantSide)
		}
	}
	hidden := &cli.Command{Path: []string{"h"}, Hidden: true, JSON: true, Run: runStubNoop}
	dep := &cli.Command{Path: []string{"d"}, Deprecated: true, JSON: true, Run: runStubNoop}
	nojson := &cli.Command{Path: []string{"n"}, Run: runStubNoop}
	for _, c := range []*cli.Command{hidden, dep, nojson} {
		if _, err := Exposure(c, nil, TransportMCPStdio, ""); cli.CodeOf(err) != cli.CodeNotExposed {
			t.Errorf("%s: want E421, got %v", c.Name(), err)
		}
	}
}

func TestExposureSideEffectForFailsClosed(t *testing.T) {
	cmd := &cli.Command{Path: []string{"x"}, JSON: true, Output: cli.Document, Surface: cli.Machine, SideEffect: cli.Write, Run: runStubNoop,
		SideEffectFor: func(string, []string) (cli.SideEffect, error) { return "", errors.New("unreadable") }}
	if _, err := Exposure(cmd, &Request{}, TransportMCPStdio, ""); cli.CodeOf(err) != cli.CodeNotExposed {
		t.Fatalf("an unclassifiable request without a confirm block must be refused, got %v", err)
	}
	cmd.Confirm = &cli.Confirm{Consent: []string{"yes"}}
	v, err := Exposure(cmd, &Request{}, TransportMCPStdio, "")
	if err != nil || v.SideEffect != cli.Destructive {
		t.Fatalf("got %v %v, want destructive", v, err)
	}
}

func TestRunTakesTheWorkflowSideEffect(t *testing.T) {
	project := t.TempDir()
	projectfiles.Workflow(t, project, "wipe", "destructive", "")
	projectfiles.Workflow(t, project, "peek", "read", "")
	run := invoke.Commands().Lookup([]string{"run"})
	for id, want := range map[string]cli.SideEffect{"wipe": cli.Destructive, "peek": cli.Read, "missing": cli.Destructive} {
		v, err := Exposure(run, &Request{Args: []string{id}}, TransportMCPStdio, project)
		if err != nil || v.SideEffect != want {
			t.Errorf("run %s: %v %v, want %s", id, v, err, want)
		}
	}
}
