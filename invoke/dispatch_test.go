package invoke

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/themes"
)

// A command whose row has no JSON envelope (it speaks a protocol on its
// streams) refuses --json before it starts: exit 2 and exactly one error
// envelope on stdout, never a protocol stream followed by a document.
func TestCommandsWithoutJSONRefuseTheJSONFlag(t *testing.T) {
	for _, cmd := range Commands().Commands {
		if cmd.JSON || cmd.Run == nil {
			continue
		}
		t.Run(cmd.Name(), func(t *testing.T) {
			home, project := t.TempDir(), t.TempDir()
			env, out, _ := machineTestEnv(t, home, project, nil)
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // a command that started serving anyway returns at once
			args := append(append([]string{}, cmd.Path...), "--json")
			if code := Main(ctx, env, args); code != cli.ExitUsage {
				t.Fatalf("exit %d, want 2; stdout %q", code, out.Bytes())
			}
			dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
			var e machineEnvelope
			if err := dec.Decode(&e); err != nil || e.OK || e.Error == nil || dec.More() {
				t.Fatalf("stdout must be exactly one error envelope: %q", out.Bytes())
			}
			if strings.HasPrefix(e.Error.Message, string(e.Error.Code)) {
				t.Fatalf("the message repeats the code: %q", e.Error.Message)
			}
		})
	}
}

func TestHelpUsageLines(t *testing.T) {
	tab := Commands()
	for path, want := range map[string]string{"": "relavium COMMAND [flags]", "mcp": "relavium mcp COMMAND [flags]",
		"run": "relavium run WORKFLOW [flags]"} {
		if got := tab.Help(strings.Fields(path)).Usage; got != want {
			t.Errorf("help %q: usage %q, want %q", path, got, want)
		}
	}
}

func TestTooManyArgumentsNamesWhatTheCommandTakes(t *testing.T) {
	tab := Commands()
	for args, want := range map[string]string{
		"version extra":     "version takes no arguments, got 1: extra",
		"consent grant a b": "consent grant takes DIGEST|SERVER|NAME@ORIGIN, got 2 arguments: a b",
	} {
		home, project := t.TempDir(), t.TempDir()
		env, _, _ := machineTestEnv(t, home, project, nil)
		_, err := tab.Parse(env, strings.Fields(args))
		if cli.CodeOf(err) != cli.CodeBadArgs || fault.ExitOf(err) != cli.ExitUsage || cli.MessageOf(err) != want {
			t.Errorf("%s: %v, want E103 %q", args, err, want)
		}
	}
}

// A global flag with a closed list is checked on every command, not only
// by the command that reads it: --theme bogus is a usage mistake on mcp ls
// too, before anything is loaded or spawned.
func TestGlobalEnumFlagsCheckedOnEveryCommand(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	env, _, _ := machineTestEnv(t, home, project, nil)
	_, err := Commands().Parse(env, []string{"mcp", "ls", "--theme", "bogus"})
	// The theme flag is checked on every command, and an unknown name is
	// the themes package's E700 (as from RELAVIUM_THEME or config), exit 2.
	if cli.CodeOf(err) != themes.CodeUnknownTheme || fault.ExitOf(err) != cli.ExitUsage ||
		!strings.Contains(err.Error(), `unknown theme "bogus" from --theme: use one of auto, dark, light, high-contrast, mono`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := Commands().Parse(env, []string{"--theme", "mono", "version"}); err != nil {
		t.Fatalf("a listed theme refused: %v", err)
	}
}

// --version on any command line is `relavium version`; a typo of it gets
// the did-you-mean every unknown flag gets.
func TestVersionFlagOnAnyCommand(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	for _, args := range [][]string{{"--version"}, {"mcp", "ls", "--version"}, {"--version", "--json"}} {
		env, out, _ := machineTestEnv(t, home, project, nil)
		if code := Main(context.Background(), env, args); code != cli.ExitOK {
			t.Fatalf("%v: exit %d", args, code)
		}
		if env.Version == "" || !strings.Contains(out.String(), env.Version) {
			t.Fatalf("%v: no version printed: %q", args, out.String())
		}
	}
	env, _, _ := machineTestEnv(t, home, project, nil)
	_, err := Commands().Parse(env, []string{"--versoin"})
	if cli.CodeOf(err) != cli.CodeUnknownFlag || !strings.Contains(err.Error(), "did you mean --version?") {
		t.Fatalf("err = %v", err)
	}
}
