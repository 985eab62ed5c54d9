package machine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/invoke/cli"
)

func TestParseRequestStrict(t *testing.T) {
	hex64 := strings.Repeat("ab", 32)
	bad := []struct{ name, in, msg string }{
		{"not an object", `[1]`, "must be a JSON object"},
		{"unknown member", `{"args":[],"extra":1}`, `unknown member "extra"`},
		{"names match exactly", `{"ARGS":["x"]}`, `unknown member "ARGS"`},
		{"repeated top-level member", `{"args":["a"],"args":["b"]}`, `member "args" appears twice`},
		{"repeated flag", `{"flags":{"quiet":true,"quiet":false}}`, `flag "quiet" appears twice`},
		{"args of numbers", `{"args":[1]}`, "args must be an array of strings"},
		{"args not an array", `{"args":"x"}`, "args must be an array of strings"},
		{"argv of objects", `{"argv":[{}]}`, "argv must be an array of strings"},
		{"flag null", `{"flags":{"x":null}}`, `flag "x" must be`},
		{"flag object", `{"flags":{"x":{"y":1}}}`, `flag "x" must be`},
		{"flag list of numbers", `{"flags":{"x":[1]}}`, `flag "x" must be an array of strings`},
		{"flags not an object", `{"flags":[]}`, "flags must be an object"},
		{"confirm uppercase", `{"confirm":"` + strings.ToUpper(hex64) + `"}`, "confirm must be 64 lowercase hex"},
		{"confirm short", `{"confirm":"abc"}`, "confirm must be 64 lowercase hex"},
		{"confirm number", `{"confirm":1}`, "confirm must be 64 lowercase hex"},
		{"trailing data", `{} {}`, "data after its JSON object"},
		{"truncated", `{"args":["a"`, "must be an array of strings"},
		{"too large", `{"args":["` + strings.Repeat("a", MaxRequestBytes) + `"]}`, "larger than"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseRequest([]byte(c.in))
			if err == nil {
				t.Fatalf("accepted %s", c.in)
			}
			if cli.CodeOf(err) != CodeInvalidRequest || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("got %v, want E420 containing %q", err, c.msg)
			}
		})
	}
	good := `{"args":["-x","a b"],"flags":{"tags":["a","b"],"quiet":true,"n":2,"s":"v"},"argv":[],"confirm":"` + hex64 + `"}`
	r, err := ParseRequest([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Args, "|") != "-x|a b" || r.Confirm != hex64 || len(r.Flags) != 4 ||
		r.Flags["quiet"].Kind != KindBool || !r.Flags["quiet"].Bool || r.Flags["n"].Num != "2" ||
		strings.Join(r.Flags["tags"].List, ",") != "a,b" || r.Flags["s"].Str != "v" {
		t.Fatalf("parsed %+v", r)
	}
	for _, empty := range []string{"", "  ", "null", "{}"} {
		r, err := ParseRequest([]byte(empty))
		if err != nil || len(r.Args)+len(r.Flags)+len(r.Argv) != 0 || r.Confirm != "" {
			t.Fatalf("%q: %+v %v", empty, r, err)
		}
	}
}

func TestParseRequestNeverEchoesValues(t *testing.T) {
	_, err := ParseRequest([]byte(`{"flags":{"k":{"hunter2":1}}}`))
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("error echoes a value: %v", err)
	}
}

type idVector struct {
	Name    string `json:"name"`
	Command string `json:"command"`
	Args    []struct {
		Name     string `json:"name"`
		Secret   bool   `json:"secret"`
		Variadic bool   `json:"variadic"`
	} `json:"args"`
	Flags []struct {
		Name   string `json:"name"`
		Secret bool   `json:"secret"`
	} `json:"flags"`
	Request   json.RawMessage `json:"request"`
	Canonical string          `json:"canonical"`
	Want      string          `json:"want"`
}

func TestRequestIDVectors(t *testing.T) {
	b, err := os.ReadFile("../testdata/machine/request_id_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vecs []idVector
	if err := json.Unmarshal(b, &vecs); err != nil {
		t.Fatal(err)
	}
	if len(vecs) < 8 {
		t.Fatalf("only %d vectors", len(vecs))
	}
	for _, v := range vecs {
		t.Run(v.Name, func(t *testing.T) {
			cmd := &cli.Command{Path: strings.Fields(v.Command), Run: runStubNoop}
			for _, a := range v.Args {
				cmd.Args = append(cmd.Args, cli.Arg{Name: a.Name, Secret: a.Secret, Variadic: a.Variadic})
			}
			for _, f := range v.Flags {
				cmd.Flags = append(cmd.Flags, cli.Flag{Name: f.Name, Type: cli.String, Secret: f.Secret})
			}
			r, err := ParseRequest(v.Request)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(CanonicalRequest(v.Command, cmd, r)); got != v.Canonical {
				t.Fatalf("canonical\n got %s\nwant %s", got, v.Canonical)
			}
			sum := sha256.Sum256([]byte(v.Canonical))
			if hex.EncodeToString(sum[:]) != v.Want {
				t.Fatalf("vector want is not sha256(canonical)")
			}
			if got := RequestID(v.Command, cmd, r); got != v.Want {
				t.Fatalf("id %s, want %s", got, v.Want)
			}
		})
	}
}

func TestRequestIDNeverDerivesFromASecret(t *testing.T) {
	cmd := stubTable().Lookup([]string{"stub", "remote"})
	a, _ := ParseRequest([]byte(`{"args":["t"],"flags":{"token":"one"}}`))
	b, _ := ParseRequest([]byte(`{"args":["t"],"flags":{"token":"two"}}`))
	if RequestID("stub remote", cmd, a) != RequestID("stub remote", cmd, b) {
		t.Fatal("requests differing only in a secret have different ids")
	}
	if fullDigest("stub remote", a) == fullDigest("stub remote", b) {
		t.Fatal("the nonce digest must see the secret value")
	}
	if vals := a.SecretValues(cmd); len(vals) != 1 || vals[0] != "one" {
		t.Fatalf("secret values %q", vals)
	}
}

func TestRedactForAudit(t *testing.T) {
	cmd := stubTable().Lookup([]string{"stub", "read"})
	r, _ := ParseRequest([]byte(`{"args":["k","s"],"flags":{"api-key":"x","mode":"a","quiet":true}}`))
	red := r.Redact(cmd, true)
	b, _ := json.Marshal(red)
	want := `{"args":["k","[REDACTED]"],"argv":[],"flags":{"api-key":"[REDACTED]","mode":"a","quiet":true}}`
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
	for _, n := range []string{"GITHUB_TOKEN", "db-password", "dsn", "Private", "signing_key"} {
		if !IsSecretKey(n) {
			t.Errorf("%s should look secret", n)
		}
	}
	if IsSecretKey("timeout") || IsSecretKey("quiet") {
		t.Error("plain names look secret")
	}
}

// TestRequestNestingRefused: a machine request, or a published workflow's
// arguments, nested past 256 levels is E420 before the decoder reads it.
func TestRequestNestingRefused(t *testing.T) {
	deep := `{"flags":{"x":` + strings.Repeat("[", 100000) + `}}`
	_, err := ParseRequest([]byte(deep))
	if cli.CodeOf(err) != CodeInvalidRequest || fault.ExitOf(err) != cli.ExitUsage ||
		!strings.Contains(err.Error(), "nesting deeper than 256 levels (byte 268)") {
		t.Fatalf("request: %v", err)
	}
	if _, err := ParseRequest([]byte(`{"flags":{"x":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}}`)); err == nil ||
		strings.Contains(err.Error(), "nesting") {
		t.Fatalf("200 levels are judged by the request's own rules, not refused for nesting: %v", err)
	}
}
