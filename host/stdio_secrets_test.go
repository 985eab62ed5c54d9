package host

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/secrets"
)

func TestMissingSecretFailsBeforeAnySpawn(t *testing.T) {
	opts := Options{
		Servers: []Endpoint{
			stdioServer(t, "a", "ok"),
			stdioServer(t, "b", "ok", consent.EnvVar{Name: "TOKEN", Value: "{{secrets.nope}}"}),
		},
		Secrets: secrets.SecretChain{secrets.EnvSecrets{LookupEnv: func(string) (string, bool) { return "", false }}},
	}
	_, err := Start(context.Background(), opts)
	if codeOf(err) != failure.CodeSecretMissing || !strings.Contains(err.Error(), "RELAVIUM_SECRET_NOPE") {
		t.Fatalf("err = %v", err)
	}
	var he *failure.Error
	if !errors.As(err, &he) || he.ExitCode() != fault.ExitUsage {
		t.Errorf("exit code of %v is not 2", err)
	}
	assertNoProcesses(t)
}
func TestCleanEnvironmentSecretsAndCwd(t *testing.T) {
	const secret = "s3cr3t-value-XYZ"
	rec := &recorder{}
	srv := stdioServer(t, "env", "ok",
		consent.EnvVar{Name: "LITERAL", Value: "plain"},
		consent.EnvVar{Name: "API_TOKEN", Value: "{{secrets.api-token}}"},
		consent.EnvVar{Name: "TEXT_REF", Value: "x {{secrets.api-token}}"},
	)
	lookup := func(k string) (string, bool) {
		if k == "RELAVIUM_SECRET_API_TOKEN" {
			return secret, true
		}
		return "", false
	}
	h := startHost(t, Options{
		Servers: []Endpoint{srv},
		Emitter: rec,
		Environ: []string{"HOME=/home/x", "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8", "TZ=UTC", "AWS_SECRET_ACCESS_KEY=leak",
			"LD_PRELOAD=/evil.so", "USER=x", "SHELL=() { :; }; echo pwned"},
		Secrets: secrets.SecretChain{secrets.EnvSecrets{LookupEnv: lookup}},
	})
	env := callText(t, h, "mcp_env_env", `{}`)
	got := map[string]string{}
	for _, kv := range strings.Split(env, "\n") {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	want := map[string]string{"HOME": "/home/x", "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC", "USER": "x",
		// The child got the secret; the result that repeats it shows its
		// reference (the session's one redactor: a whole-value match).
		"LITERAL": "plain", "API_TOKEN": "{{secrets.api-token}}", "TEXT_REF": "x {{secrets.api-token}}"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("child env %s = %q, want %q", k, got[k], v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("child env has %s, which is not allowlisted or declared", k)
		}
	}
	cwd := callText(t, h, "mcp_env_cwd", `{}`)
	if cwd != srv.Stdio.Cwd {
		t.Errorf("cwd = %q, want the digested %q", cwd, srv.Stdio.Cwd)
	}
	_ = h.Close()
	if strings.Contains(rec.dump(t), secret) {
		t.Error("an event carries the secret value")
	}
}

// A server that quotes its injected secret back (in a protocol error, a log
// notification, a progress message) never gets it into an error or an
// event: host shows the {{secrets.NAME}} reference instead.
func TestSecretsNeverReachErrorsOrEventsThroughTheServer(t *testing.T) {
	const secret = `s3cr3t"<&>-value`
	rec := &recorder{}
	h := startHost(t, Options{
		Servers: []Endpoint{stdioServer(t, "s", "ok", consent.EnvVar{Name: "API_TOKEN", Value: "{{secrets.api-token}}"})},
		Emitter: rec,
		Secrets: secrets.SecretChain{secrets.EnvSecrets{LookupEnv: func(k string) (string, bool) {
			return secret, k == "RELAVIUM_SECRET_API_TOKEN"
		}}},
	})
	var progress []string
	_, err := callTool(t, h, context.Background(), "mcp_s_leak", `{"name":"API_TOKEN"}`, engine.CallOptions{
		OnProgress: func(p engine.Progress) { progress = append(progress, p.Message) },
	})
	if codeOf(err) != failure.CodeCallFailed || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "{{secrets.api-token}}") {
		t.Errorf("err = %v", err)
	}
	if len(progress) != 1 || progress[0] != "using {{secrets.api-token}}" {
		t.Errorf("progress = %q", progress)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(rec.ofType(engine.EventToolLog)) < 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	logs := rec.ofType(engine.EventToolLog)
	if len(logs) != 1 {
		t.Fatalf("%d log events, want 1", len(logs))
	}
	d := logs[0].Data.(engine.ToolLogData)
	var data map[string]string
	if err := json.Unmarshal(d.Data, &data); err != nil || data["token"] != "{{secrets.api-token}}" ||
		data["quoted"] != `"{{secrets.api-token}}"` || d.Logger != "leak {{secrets.api-token}}" {
		t.Errorf("log = %s %s (%v)", d.Logger, d.Data, err)
	}
	_ = h.Close()
	if dump := rec.dump(t); strings.Contains(dump, "s3cr3t") {
		t.Errorf("an event carries the secret value: %s", dump)
	}
}

// Fail-loud names every missing secret of every server at once, still
// before anything is spawned.
func TestEveryMissingSecretIsNamedBeforeAnySpawn(t *testing.T) {
	opts := Options{
		Servers: []Endpoint{
			stdioServer(t, "a", "ok", consent.EnvVar{Name: "ONE", Value: "{{secrets.one}}"}, consent.EnvVar{Name: "TWO", Value: "{{secrets.two}}"}),
			stdioServer(t, "b", "ok"),
			stdioServer(t, "c", "ok", consent.EnvVar{Name: "THREE", Value: "{{secrets.three}}"}),
		},
		Secrets: secrets.SecretChain{secrets.EnvSecrets{LookupEnv: func(string) (string, bool) { return "", false }}},
	}
	_, err := Start(context.Background(), opts)
	if codeOf(err) != failure.CodeSecretMissing {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"RELAVIUM_SECRET_ONE", "RELAVIUM_SECRET_TWO", "RELAVIUM_SECRET_THREE", "server a", "server c"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %s: %v", want, err)
		}
	}
	var he *failure.Error
	if !errors.As(err, &he) || he.ExitCode() != fault.ExitUsage {
		t.Errorf("exit code of %v is not 2", err)
	}
	assertNoProcesses(t)
}

// A tool whose RESULT quotes an injected secret (here: its own environment)
// goes to the caller with the {{secrets.NAME}} reference in its place (the
// session's one redactor, for stdio servers as for network ones), and so do
// the events engine.Trace makes of the call (Host is an engine.Redactor).
func TestSecretsNeverReachCallEventsThroughAResult(t *testing.T) {
	const secret = "s3cr3t-result-value"
	h := startHost(t, Options{
		Servers: []Endpoint{stdioServer(t, "s", "ok", consent.EnvVar{Name: "API_TOKEN", Value: "{{secrets.api-token}}"})},
		Secrets: secrets.SecretChain{secrets.EnvSecrets{LookupEnv: func(k string) (string, bool) {
			return secret, k == "RELAVIUM_SECRET_API_TOKEN"
		}}},
	})
	var def engine.ToolDef
	for _, d := range h.Tools() {
		if d.Name == "mcp_s_env" {
			def = d
		}
	}
	rec := &recorder{}
	res, _, err := engine.Trace(context.Background(), h, rec, engine.TracedCall{CallID: "c", Tool: def, Args: json.RawMessage(`{}`)})
	if err != nil || strings.Contains(res.Text(), secret) || !strings.Contains(res.Text(), "API_TOKEN={{secrets.api-token}}") {
		t.Fatalf("the caller gets the result with the reference: %v %v", res, err)
	}
	if dump := rec.dump(t); strings.Contains(dump, secret) || !strings.Contains(dump, "{{secrets.api-token}}") {
		t.Errorf("call events must carry the reference, not the value: %s", dump)
	}
	_ = h.Close()
}

// A secret whose resolved value is an exported shell function ("() {") is
// refused like an authored one, before anything is spawned, and the error
// never echoes the value.
func TestResolvedSecretValueIsCheckedAgainstTheDenylist(t *testing.T) {
	const value = "() { :; }; echo pwned-by-secret"
	_, err := Start(context.Background(), Options{
		Servers: []Endpoint{stdioServer(t, "s", "ok", consent.EnvVar{Name: "API_TOKEN", Value: "{{secrets.api-token}}"})},
		Secrets: secrets.SecretChain{secrets.EnvSecrets{LookupEnv: func(k string) (string, bool) { return value, k == "RELAVIUM_SECRET_API_TOKEN" }}},
	})
	if codeOf(err) != consent.CodeEnvRefused || strings.Contains(err.Error(), "pwned") {
		t.Fatalf("err = %v, want %s without the value", err, consent.CodeEnvRefused)
	}
}
