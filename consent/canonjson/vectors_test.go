package canonjson

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// fingerprint builds the object the v1 digest hashes, env already
// tagged (package consent tags it; here the vectors spell it out).
func fingerprint(command string, args []string, env map[string]any, cwd string) map[string]any {
	return map[string]any{"transport": "stdio", "command": command, "args": args, "env": env, "cwd": cwd}
}

func digest(t *testing.T, v any) string {
	t.Helper()
	b, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return "v1:" + hex.EncodeToString(sum[:])
}

// TestGoldenVectors runs the four golden vectors
// (docs/mcp-integration.md) against the encoder itself.
func TestGoldenVectors(t *testing.T) {
	for _, tc := range []struct {
		v    map[string]any
		want string
	}{
		{fingerprint("/bin/x", []string{}, map[string]any{}, "/w"),
			"v1:50264fc33efd1056148d3d6642a98fcb74e03b214ed9c380feddb92f7e1714c2"},
		{fingerprint("/bin/é☃", []string{"ünïcode"}, map[string]any{}, "/w/é"),
			"v1:fcf2ed9b8fd9d97d5c948cbddbc105319c78c2e3b486e5c7e9d89d5d8661e220"},
		{fingerprint("/bin/x", []string{`a"b`, `c\d`}, map[string]any{}, "/w"),
			"v1:8b7c2b426792b5ca2364dc74e4c8b73c386aada84fb4745513b2a826ab92ed43"},
		{fingerprint("/bin/x", []string{}, map[string]any{
			"A": map[string]string{"kind": "secret-ref", "name": "k"},
			"B": map[string]any{"kind": "literal", "value": "secret:k"},
		}, "/w"), "v1:0a178265ba8310190e1cfe4e6e53e4797a4ffdea6768b8faa8ab70331f58431d"},
	} {
		if got := digest(t, tc.v); got != tc.want {
			t.Errorf("%v: digest %s, want %s", tc.v, got, tc.want)
		}
	}
}

type vectorFile struct {
	Fingerprints []struct {
		Name      string `json:"name"`
		Canonical string `json:"canonical"`
		Digest    string `json:"digest"`
	} `json:"fingerprints"`
	Values []struct {
		Input     string `json:"input"`
		Canonical string `json:"canonical"`
	} `json:"values"`
}

func readVectors(t *testing.T) vectorFile {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "consent", "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vf vectorFile
	if err := json.Unmarshal(raw, &vf); err != nil {
		t.Fatal(err)
	}
	if len(vf.Fingerprints) < 10 || len(vf.Values) < 4 {
		t.Fatalf("vectors.json holds %d fingerprints and %d values; expected the full set", len(vf.Fingerprints), len(vf.Values))
	}
	return vf
}

// decode reads JSON text as Marshal's input: numbers as float64, or as
// json.Number with useNumber.
func decode(t *testing.T, text string, useNumber bool) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader([]byte(text)))
	if useNumber {
		d.UseNumber()
	}
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTrapVectors checks the vectors node computed (testdata/consent/
// gen_vectors.js): UTF-16 key order, JSON.stringify escaping, ECMAScript
// number formatting. Each value is encoded from float64 numbers and again
// from json.Number literals; each node-computed fingerprint is a fixed
// point (decoded and encoded again it is the same bytes) with its digest.
func TestTrapVectors(t *testing.T) {
	vf := readVectors(t)
	for _, v := range vf.Values {
		for _, useNumber := range []bool{false, true} {
			got, err := Marshal(decode(t, v.Input, useNumber))
			if err != nil {
				t.Errorf("%s (json.Number %v): %v", v.Input, useNumber, err)
				continue
			}
			if string(got) != v.Canonical {
				t.Errorf("Marshal(%s) (json.Number %v):\n got %s\nwant %s", v.Input, useNumber, got, v.Canonical)
			}
		}
	}
	for _, v := range vf.Fingerprints {
		got, err := Marshal(decode(t, v.Canonical, false))
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if string(got) != v.Canonical {
			t.Errorf("%s:\n got %s\nwant %s", v.Name, got, v.Canonical)
		}
		sum := sha256.Sum256(got)
		if d := "v1:" + hex.EncodeToString(sum[:]); d != v.Digest {
			t.Errorf("%s: digest %s, want %s", v.Name, d, v.Digest)
		}
	}
}
