package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/invoke/cli"
)

// placeholderArgs fills a command's required positionals.
func placeholderArgs(c *cli.Command) []string {
	var out []string
	for _, a := range c.Args {
		if a.Required {
			out = append(out, "placeholder-"+strings.ToLower(strings.Split(a.Name, "|")[0]))
		}
	}
	return out
}

// TestEnvelopeShapeOfEveryCommand runs every command that supports --json,
// headless, in an empty project, and checks that stdout holds exactly one
// JSON document of the envelope shape and that the exit code agrees with it.
func TestEnvelopeShapeOfEveryCommand(t *testing.T) {
	bin := testbin.Relavium(t)
	for _, c := range invoke.Commands().Commands {
		if c.Run == nil || !c.JSON {
			continue
		}
		t.Run(c.Name(), func(t *testing.T) {
			project, home := t.TempDir(), t.TempDir()
			args := append(append([]string{}, c.Path...), placeholderArgs(c)...)
			args = append(args, "--json", "--project", project)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Env = append(os.Environ(), "RELAVIUM_HOME="+home, "CI=1")
			cmd.Dir = project
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatalf("run %v: %v", args, err)
			}
			dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
			var env struct {
				OK    *bool           `json:"ok"`
				Data  json.RawMessage `json:"data"`
				Error *struct {
					Code    string `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := dec.Decode(&env); err != nil {
				t.Fatalf("stdout is not one JSON document: %v\nstdout=%q\nstderr=%q", err, stdout.String(), stderr.String())
			}
			if dec.More() {
				t.Fatalf("stdout holds more than one JSON document: %q", stdout.String())
			}
			if env.OK == nil {
				t.Fatalf("envelope has no ok member: %q", stdout.String())
			}
			if *env.OK {
				if env.Error != nil || code != 0 {
					t.Fatalf("ok envelope with error or exit %d: %q", code, stdout.String())
				}
			} else {
				if env.Error == nil || !strings.HasPrefix(env.Error.Code, "E") || env.Error.Message == "" {
					t.Fatalf("failed envelope without a coded error: %q", stdout.String())
				}
				if code == 0 {
					t.Fatalf("failed envelope but exit 0: %q", stdout.String())
				}
			}
		})
	}
}

// TestUsageErrorsExitTwo checks unknown commands and flags: exit 2, a
// suggestion, and a JSON envelope under --json.
func TestUsageErrorsExitTwo(t *testing.T) {
	bin := testbin.Relavium(t)
	cases := []struct {
		args    []string
		code    fault.Code
		suggest string
	}{
		{[]string{"vesion", "--json"}, cli.CodeUnknownCommand, `did you mean \"version\"`},
		{[]string{"mcp", "lss", "--json"}, cli.CodeUnknownCommand, `did you mean \"mcp ls\"`},
		{[]string{"version", "--jsonn", "--json"}, cli.CodeUnknownFlag, "did you mean --json"},
		{[]string{"--json", "consent"}, cli.CodeGroupCommand, "ls, digest, grant, revoke"},
		{[]string{"run", "--json"}, cli.CodeBadArgs, "WORKFLOW"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			cmd := exec.Command(bin, c.args...)
			cmd.Env = append(os.Environ(), "RELAVIUM_HOME="+t.TempDir())
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			err := cmd.Run()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 2 {
				t.Fatalf("want exit 2, got %v (stdout %q)", err, stdout.String())
			}
			out := stdout.String()
			if !strings.Contains(out, `"code":"`+string(c.code)+`"`) || !strings.Contains(out, c.suggest) {
				t.Fatalf("want code %s and %q in %s", c.code, c.suggest, out)
			}
		})
	}
}

// TestGlobalFlagsBeforeOrAfterPath checks `relavium --json version` and
// `relavium version --json` print the same envelope.
func TestGlobalFlagsBeforeOrAfterPath(t *testing.T) {
	bin := testbin.Relavium(t)
	a, err := exec.Command(bin, "--json", "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) || !bytes.HasPrefix(a, []byte(`{"ok":true,"data":{"version":`)) {
		t.Fatalf("differ or wrong shape:\n%s\n%s", a, b)
	}
}
