package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
)

// want is one expected problem (or warning): its exact code, place and field.
type want struct {
	code      fault.Code
	file      string // relative to the case root: home/…, project/…
	line, col int
	field     string
	msg       string // a substring the message must hold ("" = any)
	related   string // "file:line:col" the problem must also name ("" = none checked)
}

// ruleCase is one row of a rule's table: a fixture folder under
// testdata/config/bad, or files written to a temp root. Both hold home/ (the
// relavium home) and project/ (the project directory).
type ruleCase struct {
	name     string
	fixture  string
	files    map[string]string
	want     []want            // exactly these problems, in reported order
	warnings []want            // exactly these warnings
	env      map[string]string // relavium's environment (Sources.LookupEnv); nil: none set
}

const (
	globalTOML  = "home/config.toml"
	projectTOML = "project/.relavium/config.toml"
	agentYAML   = "project/.relavium/agents/a.yaml"
)

// runRule validates each case and asserts the exact problem list; Load must
// report the config-file subset of it, since both share one pass.
func runRule(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := caseRoot(t, tc)
			home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
			src := Sources{}
			if tc.env != nil {
				src.LookupEnv = func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			}
			rep, err := ValidateFrom(home, project, "", src)
			matchProblems(t, root, "problem", problemsOf(t, err), tc.want)
			if rep == nil {
				t.Fatal("Validate returned no report")
			}
			matchProblems(t, root, "warning", rep.Warnings, tc.warnings)

			var configWant []want
			for _, w := range tc.want {
				if strings.HasSuffix(w.file, ".toml") {
					configWant = append(configWant, w)
				}
			}
			cfg, lerr := LoadFrom(home, project, src)
			matchProblems(t, root, "Load problem", problemsOf(t, lerr), configWant)
			if (lerr == nil) != (cfg != nil) {
				t.Fatalf("Load returned config %v with error %v: want exactly one", cfg != nil, lerr)
			}
		})
	}
}

func caseRoot(t *testing.T, tc ruleCase) string {
	t.Helper()
	if tc.fixture != "" {
		root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "config", "bad", tc.fixture))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(root); err != nil {
			t.Fatalf("fixture %s: %v", tc.fixture, err)
		}
		return root
	}
	return writeTree(t, tc.files)
}

// writeTree writes files (paths relative to a new temp root) and returns the root.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// problemsOf unpacks the aggregate error, checking its contract: E200, exit 2.
func problemsOf(t *testing.T, err error) []Problem {
	t.Helper()
	if err == nil {
		return nil
	}
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %T %v is not a *config.Error", err, err)
	}
	if ce.Code() != CodeInvalid || ce.ExitCode() != 2 {
		t.Fatalf("aggregate error code %s exit %d, want %s exit 2", ce.Code(), ce.ExitCode(), CodeInvalid)
	}
	if len(ce.Problems) == 0 {
		t.Fatal("a *config.Error with no problem")
	}
	return ce.Problems
}

func matchProblems(t *testing.T, root, what string, got []Problem, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		var lines []string
		for _, p := range got {
			lines = append(lines, p.String())
		}
		t.Fatalf("%d %ss, want %d:\n%s", len(got), what, len(wants), strings.Join(lines, "\n"))
	}
	for i, w := range wants {
		p := got[i]
		file := filepath.Join(root, filepath.FromSlash(w.file))
		if p.Code != w.code || p.File != file || p.Line != w.line || p.Col != w.col || p.Field != w.field {
			t.Errorf("%s %d = %s %s:%d:%d field %q\n want %s %s:%d:%d field %q",
				what, i, p.Code, p.File, p.Line, p.Col, p.Field, w.code, file, w.line, w.col, w.field)
		}
		if p.Rule != ruleOf(p.Code) || p.Rule == "config" {
			t.Errorf("%s %d: rule %q does not name code %s", what, i, p.Rule, p.Code)
		}
		if strings.TrimSpace(p.Message) == "" {
			t.Errorf("%s %d: empty message", what, i)
		}
		if w.msg != "" && !strings.Contains(p.Message, w.msg) {
			t.Errorf("%s %d: message %q does not say %q", what, i, p.Message, w.msg)
		}
		if w.related != "" {
			rf, rest, _ := strings.Cut(w.related, ":")
			wantRel := filepath.Join(root, filepath.FromSlash(rf)) + ":" + rest
			var rels []string
			for _, r := range p.Related {
				rels = append(rels, fmt.Sprintf("%s:%d:%d", r.File, r.Line, r.Col))
			}
			if len(rels) != 1 || rels[0] != wantRel {
				t.Errorf("%s %d: related %v, want [%s]", what, i, rels, wantRel)
			}
			if !strings.Contains(p.Message, wantRel) && !strings.Contains(p.Message, rest) {
				t.Errorf("%s %d: message %q does not name the other place %s", what, i, p.Message, wantRel)
			}
		}
	}
}

// stdioReg is a valid stdio registration named name, for cases that need one.
func stdioReg(name string) string {
	return "[[mcp_servers]]\nname = \"" + name + "\"\ntransport = \"stdio\"\ncommand = \"npx\"\n"
}
