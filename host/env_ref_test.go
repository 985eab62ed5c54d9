package host

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/relavium/relavium/consent"
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
	env, err := childEnv("s", ambient, declared, nil, secrets)
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

	_, err = childEnv("s", ambient, []consent.EnvEntry{consent.TagEnv("A", "{{env.NOPE}}"), consent.TagEnv("B", "{{env.NADA}}")}, nil, map[string]string{})
	var he *Error
	if !errors.As(err, &he) || he.ErrCode != CodeEnvRefUnset || !strings.Contains(he.Message(), "NOPE, NADA") {
		t.Fatalf("unset variables: %v", err)
	}

	// A value read from the environment obeys the denylist like a secret.
	_, err = childEnv("s", []string{"V=() { :; }"}, []consent.EnvEntry{consent.TagEnv("BASH_FUNC_x%%", "{{env.V}}")}, nil, map[string]string{})
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
	got, err := childArgs("s", []string{"PORT=8080", "TOKEN=t-1", "HOME=/home/u"}, []string{"--port", "{{env.PORT}}", "{{env.HOST:-localhost}}", "x{{env.PORT}}", "{{env.TOKEN}}",
		"{{env.HOME}}/state:{{env.TAG:-v1}}", "--db={{env.HOME", "${HOME}"}, secrets)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"--port", "8080", "localhost", "x8080", "t-1", "/home/u/state:v1", "--db={{env.HOME", "${HOME}"}; !slices.Equal(got, want) {
		t.Errorf("args %q, want %q", got, want)
	}
	if secrets["env.TOKEN"] != "t-1" || secrets["env.HOME"] != "/home/u" {
		t.Errorf("a value read is not kept for redaction: %v", secrets)
	}
	_, err = childArgs("s", nil, []string{"{{env.NOPE}}", "--dir={{env.NADA}}/x"}, map[string]string{})
	var he *Error
	if !errors.As(err, &he) || he.ErrCode != CodeEnvRefUnset || !strings.Contains(he.Message(), "NOPE, NADA") {
		t.Fatalf("unset: %v", err)
	}
}
