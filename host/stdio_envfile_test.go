package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/fault"
)

// An env file is read at spawn into a real child's environment under the
// env denylist: its values reach the child (declared env wins over it),
// never the digest, the resolved declaration's JSON or an event (a value
// the server repeats shows as {{env_file.NAME}}); a value changed keeps
// the digest, a name added changes it; a file whose names changed between
// consent and spawn is E326; a missing, oversized, FIFO or denylisted file
// fails resolution with E325, naming the file, never a value.
func TestEnvFileReadAtSpawn(t *testing.T) {
	dir := t.TempDir()
	envPath := filepath.Join(dir, ".env")
	const long = "env-file-secret-value-1"
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(envPath, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("# a comment\nexport API_KEY=\"" + long + "\"\nSHORT='ab'\nLEVEL=debug\n\n")
	decl := consent.Declaration{Name: "f", Command: hostileBin, Args: []string{"-mode", "ok"}, Cwd: dir, EnvFile: envPath,
		Env: []consent.EnvVar{{Name: "LEVEL", Value: "info"}}}
	r, err := consent.Resolve(decl, "")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	h := startHost(t, Options{Servers: []Endpoint{{Name: "f", Transport: TransportStdio, Stdio: r}}, Emitter: rec,
		Environ: []string{"PATH=/usr/bin:/bin"}})
	env := strings.Split(callText(t, h, "mcp_f_env", `{}`), "\n")
	for _, want := range []string{"API_KEY={{env_file.API_KEY}}", "SHORT=ab", "LEVEL=info"} {
		if !slices.Contains(env, want) {
			t.Errorf("child env %q lacks %q", env, want)
		}
	}
	_ = h.Close()
	js, _ := json.Marshal(r)
	for _, where := range []string{string(js), rec.dump(t), r.Digest} {
		if strings.Contains(where, long) {
			t.Errorf("an env file's value reached the resolved declaration, the digest or an event: %s", where)
		}
	}
	if r.EnvFile == nil || r.EnvFile.Path != envPath || !slices.Equal(r.EnvFile.Names, []string{"API_KEY", "LEVEL", "SHORT"}) {
		t.Errorf("resolved env file %+v", r.EnvFile)
	}

	// A value changed: the same digest. A name added: another one, and a
	// host holding the old resolution refuses to spawn (E326).
	write("API_KEY=another-value-entirely\nSHORT=cd\nLEVEL=x\n")
	again, err := consent.Resolve(decl, "")
	if err != nil || again.Digest != r.Digest {
		t.Fatalf("a changed value changed the digest: %v %v", again, err)
	}
	write("API_KEY=v\nSHORT=cd\nLEVEL=x\nEXTRA=1\n")
	if more, err := consent.Resolve(decl, ""); err != nil || more.Digest == r.Digest {
		t.Fatalf("a name added kept the digest: %v", err)
	}
	_, err = Start(context.Background(), Options{Servers: []Endpoint{{Name: "f", Transport: TransportStdio, Stdio: r}}, Environ: []string{"PATH=/bin"}})
	if codeOf(err) != consent.CodeEnvFileChanged {
		t.Fatalf("names changed since consent: %v", err)
	}
	assertNoProcesses(t)

	// Files that are refused, each E325 naming the file, no value shown.
	fifo := filepath.Join(dir, "fifo.env")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.env")
	if err := os.WriteFile(big, []byte("A="+strings.Repeat("x", consent.MaxEnvFile)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	denied := filepath.Join(dir, "denied.env")
	if err := os.WriteFile(denied, []byte("LD_PRELOAD=/tmp/evil-value.so\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.env")
	if err := os.WriteFile(bad, []byte("OK=1\nthis is not an assignment secret-ish\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "missing.env"), fifo, big, denied, bad} {
		d := decl
		d.EnvFile = p
		done := make(chan error, 1)
		go func() { _, err := consent.Resolve(d, ""); done <- err }()
		var err error
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("reading %s hung", p)
		}
		if fault.CodeOf(err, "") != consent.CodeEnvFile || !strings.Contains(err.Error(), p) ||
			strings.Contains(err.Error(), "evil-value") || strings.Contains(err.Error(), "secret-ish") {
			t.Errorf("%s: %v", filepath.Base(p), err)
		}
	}
}
