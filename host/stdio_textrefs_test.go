package host

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/fault"
)

// References inside a stdio server's arguments and env values, with a
// real child: the child gets the values ({{secrets.NAME}} from the store,
// {{env.VAR}} from relavium's environment), the digest holds the text as
// written (the same digest whatever the values), and no value reaches the
// resolved declaration's JSON or an event. Values under 4 bytes are not
// redacted, which lets the result show that they were expanded; the long
// ones show as their references.
func TestTextReferencesReachARealChild(t *testing.T) {
	const long = "s3cr3t-long-value-Q"
	decl := consent.Declaration{Name: "t", Command: hostileBin, Cwd: t.TempDir(),
		Args: []string{"-mode", "ok", "--", "-e", "KEY={{secrets.short}}", "{{env.V}}/state", "--token={{secrets.long}}"},
		Env:  []consent.EnvVar{{Name: "STATE", Value: "{{env.V}}/db:{{secrets.short}}"}, {Name: "AUTH", Value: "Bearer {{secrets.long}}"}}}
	r, err := consent.Resolve(decl, "")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	store := storeMap{"short": "k9z", "long": long}
	h := startHost(t, Options{Servers: []Endpoint{{Name: "t", Transport: TransportStdio, Stdio: r}}, Emitter: rec,
		Environ: []string{"PATH=/usr/bin:/bin", "V=ab"}, Secrets: store})
	argv := strings.Split(callText(t, h, "mcp_t_argv", `{}`), "\n")
	if want := []string{"-e", "KEY=k9z", "ab/state", "--token={{secrets.long}}"}; !slices.Equal(argv, want) {
		t.Errorf("child argv %q, want %q", argv, want)
	}
	env := strings.Split(callText(t, h, "mcp_t_env", `{}`), "\n")
	for _, want := range []string{"STATE=ab/db:k9z", "AUTH=Bearer {{secrets.long}}"} {
		if !slices.Contains(env, want) {
			t.Errorf("child env %q lacks %q", env, want)
		}
	}
	_ = h.Close()
	js, _ := json.Marshal(r)
	for _, where := range []string{string(js), rec.dump(t)} {
		if strings.Contains(where, long) || strings.Contains(where, "k9z") {
			t.Errorf("a value reached the resolved declaration or an event: %s", where)
		}
	}
	if !strings.Contains(string(js), "KEY={{secrets.short}}") {
		t.Errorf("the resolved arguments do not hold the text as written: %s", js)
	}
	// The digest is the text's: another environment or store, the same digest.
	again, err := consent.Resolve(decl, "/elsewhere")
	if err != nil || again.Digest != r.Digest {
		t.Errorf("digest %s, then %s (%v)", r.Digest, again.Digest, err)
	}
}

// An {{env.VAR}} in a command or cwd is read from relavium's environment
// when the server is resolved: the real child is the program and runs in
// the directory it names (a PATH walk's way: the digest names the
// program that runs). Unset with no default, or a secret, is refused
// (E306) before anything runs.
func TestEnvReferencesInCommandAndCwd(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"BIN": filepath.Dir(hostileBin), "STATE": dir}
	getenv := func(k string) string { return env[k] }
	decl := consent.Declaration{Name: "p", Command: "{{env.BIN}}/" + filepath.Base(hostileBin), Args: []string{"-mode", "ok"},
		Cwd: "{{env.STATE}}/{{env.SUB:-.}}", Getenv: getenv}
	r, err := consent.Resolve(decl, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Command != hostileBin || r.Authored != decl.Command || r.Cwd != dir {
		t.Fatalf("resolved %q (authored %q) in %q", r.Command, r.Authored, r.Cwd)
	}
	h := startHost(t, Options{Servers: []Endpoint{{Name: "p", Transport: TransportStdio, Stdio: r}}, Environ: []string{"PATH=/usr/bin:/bin"}})
	if cwd := callText(t, h, "mcp_p_cwd", `{}`); cwd != dir {
		t.Errorf("the child runs in %q, want %q", cwd, dir)
	}
	for _, bad := range []consent.Declaration{
		{Name: "p", Command: "{{env.NOPE}}/x", Cwd: dir, Getenv: getenv},
		{Name: "p", Command: hostileBin, Cwd: "{{secrets.dir}}", Getenv: getenv},
	} {
		if _, err := consent.Resolve(bad, ""); fault.CodeOf(err, "") != consent.CodeBadDeclaration {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}
