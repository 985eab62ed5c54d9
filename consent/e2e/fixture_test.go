package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// world is one temporary relavium home and project, and a bin directory on
// the children's PATH.
type world struct {
	t       *testing.T
	home    string
	project string
	bin     string
	marker  string // created by the "spy" server if it is ever spawned
}

func newWorld(t *testing.T) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{t: t, home: filepath.Join(root, "home"), project: filepath.Join(root, "proj"), bin: filepath.Join(root, "bin"),
		marker: filepath.Join(root, "spawned")}
	for _, d := range []string{w.home, filepath.Join(w.project, ".relavium"), w.bin} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// spy: a stdio "server" that records that it ran.
	spy := "#!/bin/sh\ntouch '" + w.marker + "'\nexec cat\n"
	if err := os.WriteFile(filepath.Join(w.bin, "spy"), []byte(spy), 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *world) config(toml string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.project, ".relavium", "config.toml"), []byte(toml), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) storePath() string { return filepath.Join(w.home, "mcp-consent.ndjson") }

func (w *world) store() string {
	b, err := os.ReadFile(w.storePath())
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		w.t.Fatal(err)
	}
	return string(b)
}

type result struct {
	stdout, stderr string
	code           int
}

// env is the children's whole environment: no TTY, no CI unless extra sets it.
func (w *world) env(extra ...string) []string {
	return append([]string{"HOME=" + filepath.Dir(w.home), "RELAVIUM_HOME=" + w.home,
		"PATH=" + w.bin + ":/usr/local/bin:/usr/bin:/bin"}, extra...)
}

func (w *world) run(args ...string) result { return w.runEnv(nil, args...) }

func (w *world) runEnv(extra []string, args ...string) result {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = w.project
	cmd.Env = w.env(extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		w.t.Fatalf("relavium %s: %v", strings.Join(args, " "), err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// envelope is the one JSON document a --json invocation prints.
type envelope struct {
	OK    bool            `json:"ok"`
	Data  json.RawMessage `json:"data"`
	Error *struct {
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Cause   json.RawMessage `json:"cause"`
	} `json:"error"`
}

// json runs a --json invocation and checks that stdout is exactly one JSON
// document (and one line) with nothing else.
func (w *world) json(args ...string) (envelope, result) {
	w.t.Helper()
	r := w.run(append(args, "--json")...)
	return w.parse(r, args), r
}

func (w *world) parse(r result, args []string) envelope {
	w.t.Helper()
	if strings.Count(r.stdout, "\n") != 1 || !strings.HasSuffix(r.stdout, "\n") {
		w.t.Fatalf("relavium %s --json: stdout is not exactly one line:\n%s\nstderr:\n%s", strings.Join(args, " "), r.stdout, r.stderr)
	}
	var env envelope
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		w.t.Fatalf("relavium %s --json: stdout is not one envelope: %v\n%s", strings.Join(args, " "), err, r.stdout)
	}
	if env.OK != (r.code == 0) || env.OK == (env.Error != nil) {
		w.t.Fatalf("relavium %s --json: ok=%v error=%v with exit %d", strings.Join(args, " "), env.OK, env.Error, r.code)
	}
	return env
}

func (w *world) fail(r result, env envelope, code string, exit int, says ...string) {
	w.t.Helper()
	if r.code != exit || env.Error == nil || env.Error.Code != code {
		w.t.Fatalf("want %s exit %d, got exit %d envelope %s\nstderr: %s", code, exit, r.code, r.stdout, r.stderr)
	}
	for _, s := range says {
		if !strings.Contains(env.Error.Message+string(env.Error.Cause), s) {
			w.t.Errorf("error %q (cause %s) does not say %q", env.Error.Message, env.Error.Cause, s)
		}
	}
	if !strings.Contains(r.stderr, code) {
		w.t.Errorf("stderr does not carry the human error: %q", r.stderr)
	}
}

func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("data %s: %v", raw, err)
	}
	return v
}
