package expand

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host/failure"
)

// An {{env.VAR}} is read from relavium's own environment at spawn (the
// first entry wins, as getenv reads it), a default stands in for an unset
// or empty variable, the value read is kept for redaction, and an unset
// variable with no default is E880 naming every one, value never shown.
func TestChildEnvReadsEnvironmentReferences(t *testing.T) {
	ambient := []string{"PATH=/bin", "API_KEY=k-1", "API_KEY=k-2", "EMPTY=", "NODE_OPTIONS=--require x"}
	declared := []consent.EnvEntry{
		consent.TagEnv("KEY", "{{env.API_KEY}}"),
		consent.TagEnv("LEVEL", "{{env.LEVEL:-info}}"),
		consent.TagEnv("E", "{{env.EMPTY:-fallback}}"),
		consent.TagEnv("PLAIN", "x"),
	}
	secrets := map[string]string{}
	env, err := ChildEnv("s", ambient, nil, declared, nil, secrets)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"KEY=k-1", "LEVEL=info", "E=fallback", "PLAIN=x", "PATH=/bin"} {
		if !slices.Contains(env, want) {
			t.Errorf("env %v lacks %s", env, want)
		}
	}
	if slices.ContainsFunc(env, func(kv string) bool {
		return strings.HasPrefix(kv, "NODE_OPTIONS=") || strings.HasPrefix(kv, "API_KEY=")
	}) {
		t.Errorf("only the referenced value enters, under the declared name: %v", env)
	}
	if secrets["env.API_KEY"] != "k-1" {
		t.Errorf("the value read is not kept for redaction: %v", secrets)
	}

	_, err = ChildEnv("s", ambient, nil, []consent.EnvEntry{consent.TagEnv("A", "{{env.NOPE}}"), consent.TagEnv("B", "{{env.NADA}}")}, nil, map[string]string{})
	var he *failure.Error
	if !errors.As(err, &he) || he.ErrCode != failure.CodeEnvRefUnset || !strings.Contains(he.Message(), "NOPE, NADA") {
		t.Fatalf("unset variables: %v", err)
	}

	// A value read from the environment obeys the denylist like a secret.
	_, err = ChildEnv("s", []string{"V=() { :; }"}, nil, []consent.EnvEntry{consent.TagEnv("BASH_FUNC_x%%", "{{env.V}}")}, nil, map[string]string{})
	if err == nil {
		t.Fatal("a denied name was injected")
	}
}

// Each {{env.VAR}} in an argument, whole or inside text, is read at spawn
// (the digest holds the text with the reference); an argument with no
// reference, or a malformed one (refused by config before), is passed as
// written.
func TestChildArgsReadEnvironmentReferences(t *testing.T) {
	secrets := map[string]string{}
	got, err := ChildArgs("s", []string{"PORT=8080", "TOKEN=t-1", "HOME=/home/u"}, []string{"--port", "{{env.PORT}}", "{{env.HOST:-localhost}}", "x{{env.PORT}}", "{{env.TOKEN}}",
		"{{env.HOME}}/state:{{env.TAG:-v1}}", "--db={{env.HOME", "${HOME}"}, nil, secrets)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"--port", "8080", "localhost", "x8080", "t-1", "/home/u/state:v1", "--db={{env.HOME", "${HOME}"}; !slices.Equal(got, want) {
		t.Errorf("args %q, want %q", got, want)
	}
	if secrets["env.TOKEN"] != "t-1" || secrets["env.HOME"] != "/home/u" {
		t.Errorf("a value read is not kept for redaction: %v", secrets)
	}
	_, err = ChildArgs("s", nil, []string{"{{env.NOPE}}", "--dir={{env.NADA}}/x"}, nil, map[string]string{})
	var he *failure.Error
	if !errors.As(err, &he) || he.ErrCode != failure.CodeEnvRefUnset || !strings.Contains(he.Message(), "NOPE, NADA") {
		t.Fatalf("unset: %v", err)
	}
}

type storeMap map[string]string

func (m storeMap) Secret(name string) (string, bool, error) { v, ok := m[name]; return v, ok, nil }

// A {{secrets.NAME}} in an argument, whole or inside text, is the secret
// from the person's stores (bound by the program's stdio consent, whose
// digest holds the text with the reference), kept for redaction; a missing
// one is E520 naming every secret lacking, the env's and the arguments'.
// An env value with text around a reference is expanded the same way.
func TestTextReferencesInArgsAndEnv(t *testing.T) {
	secrets := map[string]string{}
	store := storeMap{"obsidian-api-key": "s3cr3t-value"}
	got, err := ChildArgs("s", []string{"HOME=/home/u"}, []string{"-e", "OBSIDIAN_API_KEY={{secrets.obsidian-api-key}}", "{{secrets.obsidian-api-key}}", "{{env.HOME}}/{{secrets.obsidian-api-key}}"}, store, secrets)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"-e", "OBSIDIAN_API_KEY=s3cr3t-value", "s3cr3t-value", "/home/u/s3cr3t-value"}; !slices.Equal(got, want) {
		t.Errorf("args %q, want %q", got, want)
	}
	if secrets["obsidian-api-key"] != "s3cr3t-value" {
		t.Errorf("the secret is not kept for redaction: %v", secrets)
	}
	_, err = ChildArgs("s", nil, []string{"--key={{secrets.a}}", "{{secrets.b}}"}, store, map[string]string{})
	if parts := MissingOf(err); len(parts) != 2 || !strings.Contains(err.Error(), "{{secrets.a}}") || !strings.Contains(err.Error(), "{{secrets.b}}") {
		t.Fatalf("missing secrets: %v", err)
	}
	if !strings.Contains(err.Error(), "E520: 2 secrets are not set: server s: an argument needs {{secrets.a}}") {
		t.Errorf("two missing secrets: %v", err)
	}
	// One secret named in two places (an ${input:id} in an argument and in
	// env) is one secret to set, not two.
	_, argsErr := ChildArgs("s", nil, []string{"--key={{secrets.a}}"}, store, map[string]string{})
	_, envErr := ChildEnv("s", nil, nil, []consent.EnvEntry{consent.TagEnv("A", "{{secrets.a}}"), consent.TagEnv("B", "{{secrets.b}}")}, store, map[string]string{})
	err = MissingSecrets(append(MissingOf(argsErr), MissingOf(envErr)...))
	if parts := MissingOf(err); len(parts) != 3 || !strings.Contains(err.Error(), "E520: 2 secrets are not set, named in 3 places: ") {
		t.Errorf("a secret named twice: %v", err)
	}
	_, err = ChildEnv("s", nil, nil, []consent.EnvEntry{consent.TagEnv("A", "{{secrets.a}}"), consent.TagEnv("B", "x-{{secrets.a}}")}, store, map[string]string{})
	if parts := MissingOf(err); len(parts) != 2 || !strings.Contains(err.Error(), "E520: a secret is not set, named in 2 places: server s: env A needs {{secrets.a}}") {
		t.Errorf("one secret named twice: %v", err)
	}
	// A value read is never read again for references.
	got, err = ChildArgs("s", []string{"X={{env.HOME}}"}, []string{"{{env.X}}"}, nil, map[string]string{})
	if err != nil || got[0] != "{{env.HOME}}" {
		t.Fatalf("a value was expanded twice: %q %v", got, err)
	}
	env, err := ChildEnv("s", []string{"HOME=/home/u"}, nil, []consent.EnvEntry{
		consent.TagEnv("STATE", "{{env.HOME}}/state"),
		consent.TagEnv("URL", "https://x.example/?k={{secrets.obsidian-api-key}}"),
	}, store, map[string]string{})
	if err != nil || !slices.Contains(env, "STATE=/home/u/state") || !slices.Contains(env, "URL=https://x.example/?k=s3cr3t-value") {
		t.Fatalf("env %q %v", env, err)
	}
	_, err = ChildEnv("s", nil, nil, []consent.EnvEntry{consent.TagEnv("STATE", "{{env.NOPE}}/state")}, nil, map[string]string{})
	if he := (*failure.Error)(nil); !errors.As(err, &he) || he.ErrCode != failure.CodeEnvRefUnset || !strings.Contains(he.Message(), "NOPE") {
		t.Fatalf("unset inside text: %v", err)
	}
}
