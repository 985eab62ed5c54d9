package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/gates/lint"
	"github.com/relavium/relavium/gates/lock"
	"github.com/relavium/relavium/gates/replay"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/config/mcpjson"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/secrets"
	"github.com/relavium/relavium/host/stream"
	"github.com/relavium/relavium/host/wire"
	"github.com/relavium/relavium/inbound"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/demoserver"
	"github.com/relavium/relavium/loadtest"
	"github.com/relavium/relavium/machine"
	"github.com/relavium/relavium/oauth"
	"github.com/relavium/relavium/sandbox"
	"github.com/relavium/relavium/session"
	"github.com/relavium/relavium/themes"
	tuibackend "github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/workflow"
)

// registries is every package's registration of the codes it owns. A
// package that raises coded errors adds its Codes here.
func registries() map[string]fault.Table {
	return map[string]fault.Table{
		"consent":             consent.Codes(),
		"consent/canonjson":   canonjson.Codes(),
		"engine":              engine.Codes(),
		"host/failure":        failure.Codes(),
		"host/config":         config.Codes(),
		"host/config/mcpjson": mcpjson.Codes(),
		"host/discovery":      discovery.Codes(),
		"gates/lint":          lint.Codes(),
		"gates/lock":          lock.Codes(),
		"gates/replay":        replay.Codes(),
		"host/wire":           wire.Codes(),
		"host/netguard":       netguard.Codes(),
		"host/secrets":        secrets.Codes(),
		"host/stream":         stream.Codes(),
		"oauth":               oauth.Codes(),
		"invoke/cli":          cli.Codes(),
		"invoke/demoserver":   demoserver.Codes(),
		"loadtest":            loadtest.Codes(),
		"machine":             machine.Codes(),
		"inbound":             inbound.Codes(),
		"sandbox":             sandbox.Codes(),
		"session":             session.Codes(),
		"themes":              themes.Codes(),
		"tui/backend":         tuibackend.Codes(),
		"workflow":            workflow.Codes(),
	}
}

// TestErrorCodesMatchREADME holds the error-code tables (docs/error-codes.md) and the
// packages' registrations together both ways: every registered code has a
// row, every row is a registered code, and no number is registered twice
// (by two packages or twice in one). It reads the registrations, not the
// Go source.
func TestErrorCodesMatchREADME(t *testing.T) {
	readme := readDoc(t, codesPage)
	rows := map[fault.Code]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\| (E\d{3}) \|`).FindAllSubmatch(readme, -1) {
		rows[fault.Code(m[1])] = true
	}
	if len(rows) < 100 {
		t.Fatalf("found only %d code rows in %s: is the table still there?", len(rows), codesPage)
	}
	owner := map[fault.Code]string{}
	codeShape := regexp.MustCompile(`^E\d{3}$`)
	for pkg, table := range registries() {
		if len(table) == 0 {
			t.Errorf("%s registers no codes", pkg)
		}
		for _, d := range table {
			if prev, dup := owner[d.Code]; dup {
				t.Errorf("%s is registered by %s and by %s", d.Code, prev, pkg)
			}
			owner[d.Code] = pkg
			if !codeShape.MatchString(string(d.Code)) || strings.TrimSpace(d.Meaning) == "" || d.Class > fault.Varies {
				t.Errorf("%s: registration %+v is not a code, a class and a meaning", pkg, d)
			}
			if !rows[d.Code] {
				t.Errorf("%s (%s) is registered but has no row in %s", d.Code, pkg, codesPage)
			}
		}
	}
	for c := range rows {
		if _, ok := owner[c]; !ok {
			t.Errorf("%s documents %s, which no package registers", codesPage, c)
		}
	}
	// A package that declares codes but is missing from registries() would
	// escape the checks above: every code literal in the module's source
	// must be a registered one.
	literal := regexp.MustCompile(`"(E\d{3})"`)
	walkSource(t, func(path string, src []byte) {
		for _, m := range literal.FindAllSubmatch(src, -1) {
			if _, ok := owner[fault.Code(m[1])]; !ok {
				t.Errorf("%s: code %s is not in any package's Codes (add the package to registries)", path, m[1])
			}
		}
	})
}

// TestSkipReasonsAreDocumented keeps the skipped-tool reason table
// (docs/error-codes.md) in step with discovery's reasons.
func TestSkipReasonsAreDocumented(t *testing.T) {
	readme := readDoc(t, codesPage)
	reasonDef := regexp.MustCompile(`(?m)^\s*Reason\w+\s*=\s*"([a-z0-9_]+)"`)
	var missing []string
	walkSource(t, func(path string, src []byte) {
		if filepath.Dir(path) != filepath.Join("host", "discovery") {
			return // skipped-tool reasons live in discovery; netguard's pair 1:1 with its codes
		}
		for _, m := range reasonDef.FindAllSubmatch(src, -1) {
			if !strings.Contains(string(readme), "`"+string(m[1])+"`") {
				missing = append(missing, string(m[1])+" ("+path+")")
			}
		}
	})
	if len(missing) > 0 {
		slices.Sort(missing)
		t.Fatalf("reasons defined but not documented in %s:\n  %s", codesPage, strings.Join(missing, "\n  "))
	}
}

// walkSource calls fn with every non-test Go file of the module outside
// testdata and hidden directories.
func walkSource(t *testing.T, fn func(path string, src []byte)) {
	t.Helper()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fn(path, src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
