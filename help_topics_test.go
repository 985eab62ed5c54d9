package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/relavium/relavium/docs"
	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/invoke/cli"
)

// runBin runs the built binary with a fresh home in a fresh directory and
// returns stdout, stderr and the exit code.
func runBin(t *testing.T, bin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "RELAVIUM_HOME="+filepath.Join(t.TempDir(), "home"), "CI=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestHelpPrintsEveryPage runs the real binary: `relavium help TOPIC`
// prints, for every page in docs/, the page on disk rendered plain — so
// the embedded reference is the repository's — with no Markdown syntax and
// nothing a terminal would act on; `--json` carries the page exact; and
// `relavium help` lists every topic.
func TestHelpPrintsEveryPage(t *testing.T) {
	bin := testbin.Relavium(t)
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil || len(pages) < 10 {
		t.Fatalf("docs pages %v (%v)", pages, err)
	}
	list, _, code := runBin(t, bin, "help")
	if code != 0 {
		t.Fatalf("relavium help: exit %d", code)
	}
	for _, p := range pages {
		name := strings.TrimSuffix(filepath.Base(p), ".md")
		if name == "README" {
			continue
		}
		disk := readDoc(t, filepath.ToSlash(p))
		out, stderr, code := runBin(t, bin, "help", name)
		if code != 0 {
			t.Errorf("relavium help %s: exit %d: %s", name, code, stderr)
			continue
		}
		if want := docs.Plain(disk); out != want {
			t.Errorf("relavium help %s is not docs/%s.md rendered plain (a stale embed?)", name, name)
		}
		title, _, _ := strings.Cut(string(disk), "\n")
		if !strings.HasPrefix(out, strings.TrimPrefix(title, "# ")+"\n===") {
			t.Errorf("relavium help %s does not open with its title underlined:\n%.200s", name, out)
		}
		for i, line := range strings.Split(out, "\n") {
			for _, r := range line {
				if r != '\t' && unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
					t.Errorf("relavium help %s:%d holds the control or format character %U", name, i+1, r)
				}
			}
			if strings.Contains(line, "\t") {
				t.Errorf("relavium help %s:%d holds a TAB", name, i+1)
			}
			for _, md := range []string{"```", "](", "**", "|---"} {
				if strings.Contains(line, md) {
					t.Errorf("relavium help %s:%d still holds Markdown %q: %s", name, i+1, md, line)
				}
			}
		}
		if !strings.Contains(list, "\n  "+name+" ") {
			t.Errorf("relavium help does not list the topic %s", name)
		}
		js, _, code := runBin(t, bin, "help", name, "--json")
		var env struct {
			OK   bool
			Data cli.TopicText
		}
		if err := json.Unmarshal([]byte(js), &env); err != nil || code != 0 || !env.OK {
			t.Errorf("relavium help %s --json: exit %d, %v: %.200s", name, code, err, js)
		} else if env.Data.Markdown != string(disk) || env.Data.Topic != name {
			t.Errorf("relavium help %s --json does not carry docs/%s.md exact", name, name)
		}
	}
}

// TestHelpUnknownTopic: a word that is neither a command nor a topic is
// E106 (exit 2) naming every topic, and a near miss is suggested.
func TestHelpUnknownTopic(t *testing.T) {
	bin := testbin.Relavium(t)
	_, stderr, code := runBin(t, bin, "help", "keyz")
	if code != 2 || !strings.Contains(stderr, "E106") || !strings.Contains(stderr, `did you mean "keys"?`) {
		t.Fatalf("relavium help keyz: exit %d, %q; want exit 2, E106 and a suggestion", code, stderr)
	}
	for _, tp := range docs.Topics() {
		if !strings.Contains(stderr, tp.Name) {
			t.Errorf("E106 does not list the topic %s: %s", tp.Name, stderr)
		}
	}
	js, _, code := runBin(t, bin, "--json", "help", "no", "such")
	var env struct {
		OK    bool
		Error struct{ Code string }
		Data  struct{ Topics []docs.Topic }
	}
	if err := json.Unmarshal([]byte(js), &env); err != nil || code != 2 || env.OK || env.Error.Code != "E106" || len(env.Data.Topics) != len(docs.Topics()) {
		t.Fatalf("relavium --json help no such: exit %d, %v: %s", code, err, js)
	}
}

// TestTopicsAreNotCommands keeps `relavium help WORD` unambiguous: no page
// of the reference is named like a command (the command's help would win
// and hide the page), and the index gives every topic a summary.
func TestTopicsAreNotCommands(t *testing.T) {
	table := invoke.Commands()
	topics := docs.Topics()
	if len(topics) < 10 {
		t.Fatalf("%d topics: the embed or the index parse is broken", len(topics))
	}
	for _, tp := range topics {
		if c := table.Lookup([]string{tp.Name}); c != nil {
			t.Errorf("docs/%s.md is named like the command %q: rename the page", tp.Name, c.Name())
		}
		if tp.Summary == "" || tp.Title == tp.Name {
			t.Errorf("topic %s has no summary in the index or no title: %+v", tp.Name, tp)
		}
	}
}
