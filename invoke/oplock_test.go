package invoke

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/projectfiles"
	"github.com/relavium/relavium/invoke/cli"
)

func machineTestEnv(t *testing.T, home, wd string, extra map[string]string) (*cli.Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errb bytes.Buffer
	vars := map[string]string{}
	for k, v := range extra {
		vars[k] = v
	}
	var environ []string
	for k, v := range vars {
		environ = append(environ, k+"="+v)
	}
	return &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, Environ: environ,
		Home: home, WorkDir: wd, Version: "test", Now: time.Now}, &out, &errb
}

func TestOpLockContentionIsE460(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	first, err := cli.AcquireOpLock(home, project)
	if err != nil {
		t.Fatal(err)
	}
	_, err = cli.AcquireOpLock(home, project)
	if cli.CodeOf(err) != cli.CodeOperationLocked || !strings.Contains(err.Error(), project) {
		t.Fatalf("want E460 naming the project, got %v", err)
	}
	if other, err := cli.AcquireOpLock(home, t.TempDir()); err != nil {
		t.Fatalf("another project must not contend: %v", err)
	} else {
		other.Release()
	}
	first.Release()
	again, err := cli.AcquireOpLock(home, project)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again.Release()
	st, _ := os.Stat(cli.OpLockPath(home, project))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("lock file mode %v", st.Mode().Perm())
	}
}

func TestDispatcherTakesTheOpLockForMutations(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	held, err := cli.AcquireOpLock(home, project)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	env, out, _ := machineTestEnv(t, home, project, nil)
	// run is a write: it needs the lock, so it is refused before it runs
	if code := Main(context.Background(), env, []string{"run", "x", "--json"}); code != cli.ExitFailure {
		t.Fatalf("exit %d", code)
	}
	var e machineEnvelope
	if err := json.Unmarshal(out.Bytes(), &e); err != nil || e.Error == nil || e.Error.Code != cli.CodeOperationLocked {
		t.Fatalf("envelope %s", out.Bytes())
	}
	// a read and the plan form of run need no lock
	env, out, _ = machineTestEnv(t, home, project, nil)
	if code := Main(context.Background(), env, []string{"version", "--json"}); code != cli.ExitOK {
		t.Fatalf("version: exit %d %s", code, out.Bytes())
	}
	env, out, _ = machineTestEnv(t, home, project, nil)
	Main(context.Background(), env, []string{"run", "x", "--plan", "--json"})
	if strings.Contains(out.String(), string(cli.CodeOperationLocked)) {
		t.Fatalf("the plan form took the lock: %s", out.Bytes())
	}
}

func TestInvokePathRecheck(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	env, out, _ := machineTestEnv(t, home, project, map[string]string{cli.EnvInvokePath: "mcp ls"})
	if code := Main(context.Background(), env, []string{"version", "--json"}); code != cli.ExitUsage {
		t.Fatalf("exit %d", code)
	}
	var e machineEnvelope
	if err := json.Unmarshal(out.Bytes(), &e); err != nil || e.Error == nil || e.Error.Code != cli.CodeNotExposed {
		t.Fatalf("envelope %s", out.Bytes())
	}
	env, out, _ = machineTestEnv(t, home, project, map[string]string{cli.EnvInvokePath: "version"})
	if code := Main(context.Background(), env, []string{"version", "--json"}); code != cli.ExitOK {
		t.Fatalf("matching path: exit %d %s", code, out.Bytes())
	}
	// the variable is gone before the command runs
	env, _, _ = machineTestEnv(t, home, project, map[string]string{cli.EnvInvokePath: "version", "KEEP": "1"})
	inv, err := Commands().Parse(env, []string{"version"})
	if err != nil {
		t.Fatal(err)
	}
	clean, err := cli.CheckInvokePath(env, inv)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := clean.LookupEnv(cli.EnvInvokePath); ok || inv.Env.Getenv("KEEP") != "1" {
		t.Fatal("RELAVIUM_INVOKE_PATH still visible to the command")
	}
	for _, kv := range clean.Environ {
		if strings.HasPrefix(kv, cli.EnvInvokePath+"=") {
			t.Fatal("RELAVIUM_INVOKE_PATH still in Environ")
		}
	}
	if _, ok := os.LookupEnv(cli.EnvInvokePath); ok {
		t.Fatal("RELAVIUM_INVOKE_PATH in the process environment")
	}
	// a help request is not the checked command
	env, out, _ = machineTestEnv(t, home, project, map[string]string{cli.EnvInvokePath: "version"})
	if code := Main(context.Background(), env, []string{"version", "--help", "--json"}); code != cli.ExitUsage || !strings.Contains(out.String(), string(cli.CodeNotExposed)) {
		t.Fatalf("help under an invoke path: exit %d %s", code, out.Bytes())
	}
}

// A read workflow is a read (the run row takes the workflow's declared side
// effect): it takes no operation lock, so it runs while another command holds
// one, and two read runs never refuse each other. A write workflow still
// waits its turn.
func TestReadWorkflowRunTakesNoOpLock(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	projectfiles.Workflow(t, project, "peek", "read", "Look at {{inputs.target}}?")
	projectfiles.Workflow(t, project, "touch", "write", "Touch {{inputs.target}}?")
	held, err := cli.AcquireOpLock(home, project)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	env, out, _ := machineTestEnv(t, home, project, nil)
	if code := Main(context.Background(), env, []string{"run", "peek", "--input", "target=x", "--yes", "--json"}); code != cli.ExitOK {
		t.Fatalf("a read workflow under a held lock: exit %d %s", code, out.Bytes())
	}
	env, out, _ = machineTestEnv(t, home, project, nil)
	Main(context.Background(), env, []string{"run", "touch", "--input", "target=x", "--yes", "--json"})
	if !strings.Contains(out.String(), string(cli.CodeOperationLocked)) {
		t.Fatalf("a write workflow must wait for the lock: %s", out.Bytes())
	}
}
