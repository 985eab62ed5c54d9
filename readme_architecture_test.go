package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/relavium/relavium"

// archRow is one row of docs/architecture.md's package table: its floor and the
// relavium packages it may import.
type archRow struct {
	floor     int
	mayImport []string
}

// readArchitecture reads the package table of docs/architecture.md:
// | `pkg` | floor | holds | may import |.
func readArchitecture(t *testing.T) map[string]archRow {
	t.Helper()
	s := string(readDoc(t, architecturePage))
	if !strings.HasPrefix(s, "# Architecture\n") {
		t.Fatalf("%s does not start with its title # Architecture", architecturePage)
	}
	// The package table is the page's first section; a later section (one
	// tool call end to end) may name packages in prose, never in rows.
	if end := strings.Index(s, "\n## "); end >= 0 {
		s = s[:end]
	}
	row := regexp.MustCompile("(?m)^\\| `([^`]+)`(?: \\(main\\))? \\| (\\d) \\| [^\\n]*\\| ([^|\\n]+) \\|$")
	rows := map[string]archRow{}
	for _, m := range row.FindAllStringSubmatch(s, -1) {
		floor, _ := strconv.Atoi(m[2])
		var may []string
		if strings.TrimSpace(m[3]) != "—" {
			for _, p := range strings.Split(m[3], ",") {
				may = append(may, strings.Trim(strings.TrimSpace(p), "`"))
			}
		}
		if _, dup := rows[m[1]]; dup {
			t.Errorf("package %s has two rows", m[1])
		}
		rows[m[1]] = archRow{floor: floor, mayImport: may}
	}
	if len(rows) == 0 {
		t.Fatalf("no package rows in %s", architecturePage)
	}
	return rows
}

// modulePackages maps every directory of the module holding Go files to
// the relavium packages its non-test files import (testdata, hidden and
// vendored folders are not packages of the module).
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		imports := out[dir]
		if strings.HasSuffix(path, "_test.go") {
			out[dir] = imports // a package of tests only still has a row
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if rel, ok := strings.CutPrefix(p, modulePath+"/"); ok && !slices.Contains(imports, rel) {
				imports = append(imports, rel)
			}
		}
		out[dir] = imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestArchitectureMatchesTheModule holds the Architecture table (docs/architecture.md) to
// the code: every package has a row and every row is a package; a package
// imports only the relavium packages its row names; and no row names a
// package on a higher floor than its own.
func TestArchitectureMatchesTheModule(t *testing.T) {
	rows := readArchitecture(t)
	pkgs := modulePackages(t)
	for dir, imports := range pkgs {
		r, ok := rows[dir]
		if !ok {
			t.Errorf("package %s has no row in the Architecture table (docs/architecture.md)", dir)
			continue
		}
		for _, im := range imports {
			if !slices.Contains(r.mayImport, im) {
				t.Errorf("package %s imports %s, which its Architecture row does not name", dir, im)
			}
		}
	}
	for name, r := range rows {
		if _, ok := pkgs[name]; !ok {
			t.Errorf("the Architecture table names %s, which is no package of the module", name)
		}
		for _, im := range r.mayImport {
			dep, ok := rows[im]
			switch {
			case !ok:
				t.Errorf("%s may import %s, which has no row", name, im)
			case dep.floor > r.floor:
				t.Errorf("%s (floor %d) may import %s from the higher floor %d", name, r.floor, im, dep.floor)
			}
		}
	}
}
