// Command stubchild stands in for the relavium binary in package invoke's
// invoker tests. It answers `<path> --json …` according to STUB_MODE:
//
//	ok         one envelope echoing argv, cwd, stdin and the invoker's env
//	two        two JSON objects (E422)
//	none       nothing on stdout; a secret and a token on stderr (E422)
//	array      a JSON array, not an object (E422)
//	huge       more than 32 MiB on stdout (E422)
//	sleep      starts a grandchild in its group, writes both pids to
//	           STUB_PIDFILE, then sleeps (E423)
//	stubborn   ignores SIGTERM and sleeps (E423 after the SIGKILL grace)
//	plan       a plan form: --plan=true prints plan_id STUB_PLAN_ID and
//	           requires_confirmation STUB_REQUIRES; --plan-id other than
//	           STUB_PLAN_ID is the child's E450; anything else runs
//	fail       an error envelope with code E603, exit 2
//	grandchild (internal) sleeps
//
// With STUB_MARK set, every run appends its argv to that file; with
// STUB_BREAK set, the run replaces that file with a dangling symlink.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	mode := os.Getenv("STUB_MODE")
	args := os.Args[1:]
	if brk := os.Getenv("STUB_BREAK"); brk != "" { // make the audit log unwritable behind the server's back
		_ = os.Remove(brk)
		_ = os.Symlink("/nonexistent/audit", brk)
	}
	if mark := os.Getenv("STUB_MARK"); mark != "" && mode != "grandchild" {
		f, err := os.OpenFile(mark, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err == nil {
			fmt.Fprintln(f, strings.Join(args, " "))
			f.Close()
		}
	}
	switch mode {
	case "grandchild":
		time.Sleep(time.Hour)
	case "two":
		fmt.Println(`{"ok":true,"data":1}`)
		fmt.Println(`{"ok":true,"data":2}`)
	case "none":
		fmt.Fprintln(os.Stderr, "boom: password=hunter2 and the secret value "+os.Getenv("STUB_ECHO")+" leaked; Authorization: Bearer abc.def")
		os.Exit(1)
	case "array":
		fmt.Println(`[1,2]`)
	case "huge":
		chunk := strings.Repeat(" ", 1<<20)
		for i := 0; i < 33; i++ {
			fmt.Print(chunk)
		}
		fmt.Println(`{"ok":true}`)
	case "sleep":
		gc := exec.Command(os.Args[0])
		gc.Env = append(os.Environ(), "STUB_MODE=grandchild")
		if err := gc.Start(); err != nil {
			os.Exit(3)
		}
		_ = os.WriteFile(os.Getenv("STUB_PIDFILE"), []byte(fmt.Sprintf("%d %d", os.Getpid(), gc.Process.Pid)), 0o600)
		time.Sleep(time.Hour)
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
		_ = os.WriteFile(os.Getenv("STUB_PIDFILE"), []byte(fmt.Sprintf("%d", os.Getpid())), 0o600)
		time.Sleep(time.Hour)
	case "fail":
		fmt.Println(`{"ok":false,"error":{"code":"E603","message":"bad inputs","cause":null}}`)
		os.Exit(2)
	case "plan":
		for _, a := range args {
			if a == "--plan=true" {
				out(map[string]any{"plan_id": os.Getenv("STUB_PLAN_ID"), "requires_confirmation": os.Getenv("STUB_REQUIRES") == "true",
					"steps": []string{"a", "b"}})
				return
			}
			if id, ok := strings.CutPrefix(a, "--plan-id="); ok && id != os.Getenv("STUB_PLAN_ID") {
				fmt.Println(`{"ok":false,"error":{"code":"E450","message":"the plan moved","cause":null}}`)
				os.Exit(1)
			}
		}
		echo(args)
	default:
		echo(args)
	}
}

func echo(args []string) {
	stdin, _ := io.ReadAll(os.Stdin)
	wd, _ := os.Getwd()
	env := map[string]any{}
	for _, name := range []string{"RELAVIUM_MCP_TOKEN", "RELAVIUM_NONINTERACTIVE", "CI", "NO_COLOR", "RELAVIUM_INVOKED_BY",
		"RELAVIUM_INVOKE_DEADLINE_MS", "RELAVIUM_INVOKE_PATH", "STUB_KEEP"} {
		if v, ok := os.LookupEnv(name); ok {
			env[name] = v
		}
	}
	out(map[string]any{"argv": args, "cwd": wd, "stdin": string(stdin), "env": env, "pgid_is_pid": pgidIsPid()})
}

func pgidIsPid() bool {
	pgid, err := syscall.Getpgid(0)
	return err == nil && pgid == os.Getpid()
}

func out(data any) {
	b, _ := json.Marshal(map[string]any{"ok": true, "data": data})
	fmt.Println(string(b))
}
