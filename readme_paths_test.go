package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsNameNoMachinePaths keeps what ships with the code — every Markdown
// page, shell script and Makefile, and the golden frames and screenshot a
// reader sees — free of paths that exist only on the machine it was written
// on (a checkout under /work, a home directory, a named temporary
// directory). A reader's paths differ: the docs say <checkout>, <project> or
// $PWD instead, and fixtures use a made-up project such as /data/app.
func TestDocsNameNoMachinePaths(t *testing.T) {
	machinePath := regexp.MustCompile(`(^|[^\w.<$])(/work/|/root/|/home/[A-Za-z_][\w.-]*|/tmp/[\w.-]+)`)
	checked := walkShipped(t, func(_, name string) bool { return shipsAsText(name) }, func(path, _ string, src []byte) {
		// A captured frame's colours sit right before its text: read the
		// text as a terminal shows it.
		text := csi.ReplaceAllString(string(src), "")
		for i, line := range strings.Split(text, "\n") {
			if m := machinePath.FindStringSubmatch(line); m != nil {
				t.Errorf("%s:%d names a machine path %q: write <checkout>, <project> or $PWD instead", path, i+1, m[2])
			}
		}
	})
	if checked < 3 {
		t.Fatalf("checked only %d files: the walk missed README.md and the scripts", checked)
	}
}

// csi matches an ANSI control sequence (ESC [ … final byte).
var csi = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]`)

// shipsAsText reports the files TestDocsNameNoMachinePaths reads: prose,
// scripts, and the captured frames and snapshots in testdata.
func shipsAsText(name string) bool {
	for _, ext := range []string{".md", ".sh", ".golden", ".ansi", ".snap"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return name == "Makefile"
}

// walkShipped reads every file of the checkout that want picks (skipping
// .git, the npm peers, node_modules and built binaries), hands each to
// check, and returns how many it read.
func walkShipped(t *testing.T, want func(path, name string) bool, check func(path, name string, src []byte)) int {
	t.Helper()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "." && (name == ".git" || name == ".peers" || name == "node_modules" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !want(path, name) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		check(path, name, src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return checked
}
