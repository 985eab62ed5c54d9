package consent

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/consent/canonjson"
)

// TestGoldenVectors runs the four golden vectors of docs/mcp-integration.md verbatim through
// Digest (package canonjson runs them against the encoder itself).
func TestGoldenVectors(t *testing.T) {
	for _, tc := range []struct {
		command string
		args    []string
		env     [][2]string
		cwd     string
		digest  string
	}{
		{"/bin/x", nil, nil, "/w", "v1:50264fc33efd1056148d3d6642a98fcb74e03b214ed9c380feddb92f7e1714c2"},
		{"/bin/é☃", []string{"ünïcode"}, nil, "/w/é", "v1:fcf2ed9b8fd9d97d5c948cbddbc105319c78c2e3b486e5c7e9d89d5d8661e220"},
		{"/bin/x", []string{`a"b`, `c\d`}, nil, "/w", "v1:8b7c2b426792b5ca2364dc74e4c8b73c386aada84fb4745513b2a826ab92ed43"},
		{"/bin/x", []string{}, [][2]string{{"A", "{{secrets.k}}"}, {"B", "secret:k"}}, "/w", "v1:0a178265ba8310190e1cfe4e6e53e4797a4ffdea6768b8faa8ab70331f58431d"},
	} {
		var env []EnvEntry
		for _, e := range tc.env {
			env = append(env, TagEnv(e[0], e[1]))
		}
		got, err := Digest(tc.command, tc.args, env, tc.cwd)
		if err != nil {
			t.Fatalf("%s: %v", tc.command, err)
		}
		if got != tc.digest {
			t.Errorf("Digest(%q, %q, %v, %q) = %s, want %s", tc.command, tc.args, tc.env, tc.cwd, got, tc.digest)
		}
	}
}

// TestTrapVectors checks the declarations node fingerprinted (testdata/
// consent/gen_vectors.js): UTF-16 key order, JSON.stringify escaping and
// the secret-ref shapes, from authored env to digest. The vectors' plain
// values are run against package canonjson.
func TestTrapVectors(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "consent", "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vf struct {
		Fingerprints []struct {
			Name      string      `json:"name"`
			Command   string      `json:"command"`
			Args      []string    `json:"args"`
			Env       [][2]string `json:"env"`
			Cwd       string      `json:"cwd"`
			Canonical string      `json:"canonical"`
			Digest    string      `json:"digest"`
		} `json:"fingerprints"`
	}
	if err := json.Unmarshal(raw, &vf); err != nil {
		t.Fatal(err)
	}
	if len(vf.Fingerprints) < 10 {
		t.Fatalf("vectors.json holds %d fingerprints; expected the full set", len(vf.Fingerprints))
	}
	for _, v := range vf.Fingerprints {
		var env []EnvEntry
		for _, e := range v.Env {
			env = append(env, TagEnv(e[0], e[1]))
		}
		canon, err := fingerprintJSON(v.Command, v.Args, env, v.Cwd, nil, nil)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if string(canon) != v.Canonical {
			t.Errorf("%s:\n got %s\nwant %s", v.Name, canon, v.Canonical)
		}
		got, _ := Digest(v.Command, v.Args, env, v.Cwd)
		if got != v.Digest {
			t.Errorf("%s: digest %s, want %s", v.Name, got, v.Digest)
		}
	}
}

// TestDigestRefusesNonCanonical: a declaration holding a value with no
// canonical form has no digest; the refusal is consent's E307 usage error
// naming where the value sits.
func TestDigestRefusesNonCanonical(t *testing.T) {
	if CodeNotCanonical != canonjson.CodeNotCanonical {
		t.Fatalf("consent's %s and canonjson's %s name the same refusal", CodeNotCanonical, canonjson.CodeNotCanonical)
	}
	for _, tc := range []struct {
		name    string
		command string
		args    []string
		env     []EnvEntry
		cwd     string
		msg     string
	}{
		{"lone surrogate in an argument", "/bin/x", []string{"ok", "\xed\xb0\x80"}, nil, "/w", "$.args[1]: lone surrogate U+DC00 at byte 0"},
		{"invalid UTF-8 in an env name", "/bin/x", nil, []EnvEntry{TagEnv("A\xff", "v")}, "/w", "$.env key: invalid UTF-8 byte 0xff at byte 1"},
		{"invalid UTF-8 in a literal", "/bin/x", nil, []EnvEntry{TagEnv("A", "v\xff")}, "/w", "$.env.A.value: invalid UTF-8"},
		{"lone surrogate in the command", "/bin/\xed\xa0\x80", nil, nil, "/w", "$.command: lone surrogate U+D800"},
		{"invalid UTF-8 in cwd", "/bin/x", nil, nil, "/w\xc0", "$.cwd: invalid UTF-8 byte 0xc0"},
	} {
		d, err := Digest(tc.command, tc.args, tc.env, tc.cwd)
		var ce *Error
		if d != "" || !errors.As(err, &ce) || ce.Code() != CodeNotCanonical || ce.ExitCode() != 2 {
			t.Errorf("%s: (%q, %v), want an E307 usage error", tc.name, d, err)
			continue
		}
		if !strings.Contains(ce.Msg, tc.msg) {
			t.Errorf("%s: message %q does not say %q", tc.name, ce.Msg, tc.msg)
		}
	}
}
