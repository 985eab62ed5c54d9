package config

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/config/mcpjson"
	"github.com/relavium/relavium/regularfile"
)

// GlobalFile is <home>/config.toml.
func GlobalFile(home string) string { return filepath.Join(home, "config.toml") }

// ProjectFile is <project>/.relavium/config.toml.
func ProjectFile(project string) string { return filepath.Join(project, ".relavium", "config.toml") }

// AgentsDir is <project>/.relavium/agents.
func AgentsDir(project string) string { return filepath.Join(project, ".relavium", "agents") }

// Themes is the theme vocabulary.
func Themes() []string { return []string{"auto", "dark", "light", "high-contrast", "mono"} }

// Load reads and validates <home>/config.toml and
// <project>/.relavium/config.toml (either may be absent) and returns the
// union of their registrations, then the servers of the client files they
// import (import = [...]) — or, when the project has no config.toml, of
// the client files found in the project (.mcp.json, .vscode/mcp.json,
// .cursor/mcp.json). Every problem of every file is returned at once in an
// *Error (exit 2); on error the Config is nil. Agents are read by
// (*Config).Agent, and every file at once by Validate.
func Load(home, project string) (*Config, error) { return LoadFrom(home, project, Sources{}) }

// loader is one validation pass over the authored files.
type loader struct {
	home, project string
	src           Sources
	c             checker
	files         []string
	// declared holds every registration name written, even in an entry
	// with problems, so a ref to it is not also reported as unknown.
	declared map[string]bool
}

func newLoader(home, project string) *loader {
	return &loader{home: absPath(home), project: absPath(project), declared: map[string]bool{}}
}

func absPath(p string) string {
	if p == "" {
		return p
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// configs reads both config files. It always returns a Config holding the
// entries that passed; l.err says whether anything failed.
func (l *loader) configs() *Config {
	cfg := &Config{Home: l.home, Project: l.project, lookupEnv: l.src.LookupEnv}
	l.c.lookupEnv = l.src.LookupEnv
	seen := map[string]Pos{}
	if len(l.src.Files) > 0 {
		for _, f := range l.src.Files {
			l.importFile(importRef{path: f, required: true}, cfg, seen)
		}
		cfg.Files = slices.Clone(l.files)
		cfg.Warnings = slices.Clone(l.c.warnings)
		return cfg
	}
	paths := []string{GlobalFile(l.home), ProjectFile(l.project)}
	if l.home == "" {
		paths = paths[1:]
	}
	if len(paths) == 2 && paths[0] == paths[1] { // the project is the home's parent
		paths = paths[:1]
	}
	var named []importRef
	projectConfig := false
	for _, path := range paths {
		data, ok := l.read(path)
		if path == ProjectFile(l.project) && slices.Contains(l.files, path) {
			projectConfig = true
		}
		if !ok {
			continue
		}
		root, probs := readTOML(path, data)
		l.c.problems = append(l.c.problems, probs...)
		if root != nil {
			l.configFile(root, cfg, seen)
			base := l.home
			if path == ProjectFile(l.project) {
				base = l.project
			}
			named = append(named, l.importList(root, base, base == l.project)...)
		}
	}
	l.imports(cfg, seen, named, projectConfig)
	cfg.Files = slices.Clone(l.files)
	cfg.Warnings = slices.Clone(l.c.warnings)
	return cfg
}

func (l *loader) configFile(root *node, cfg *Config, seen map[string]Pos) {
	c := &l.c
	c.unknownKeys(root, "", []string{"theme", "import", "mcp_servers"}, func(k string) string {
		switch strings.ToLower(k) {
		case "mcpservers", "servers", "mcp-servers", "mcp":
			return "servers are declared as [[mcp_servers]] tables"
		}
		return ""
	})
	if f := root.get("theme"); f != nil {
		if t, ok := c.str(f, "theme"); ok {
			if contains(Themes(), t) {
				cfg.Theme = t
			} else {
				msg := fmt.Sprintf("unknown theme %q: use one of %s", t, strings.Join(Themes(), ", "))
				if s := engine.Suggest(t, Themes()); s != "" {
					msg += fmt.Sprintf("; did you mean %q?", s)
				}
				c.add(CodeTheme, f.at(), "theme", "%s", msg)
			}
		}
	}
	f := root.get("mcp_servers")
	if f == nil {
		return
	}
	if f.val.kind != kindArray {
		c.add(CodeType, f.keyPos, "mcp_servers", "must be an array of tables: write [[mcp_servers]] (two brackets) before each server, got %s", f.val.kind)
		return
	}
	for i, item := range f.val.items {
		path := fmt.Sprintf("mcp_servers[%d]", i)
		d := c.server(item, path, registration, l.project)
		raw := rawName(item, "name")
		dup := false
		if raw.name != "" {
			key := strings.ToLower(raw.name)
			l.declared[key] = true
			if prev, ok := seen[key]; ok {
				dup = true
				c.add(CodeDuplicateName, raw.pos, join(path, "name"), "%s", duplicateMessage(raw.name, prev, raw.pos)).Related = []Pos{prev}
			} else {
				seen[key] = raw.pos
			}
		}
		if d.ok && !dup {
			cfg.Servers = append(cfg.Servers, d.server)
		}
	}
}

func duplicateMessage(name string, prev, at Pos) string {
	where := "in the other config file"
	switch {
	case prev.File == at.File:
		where = "earlier in this file"
	case filepath.Ext(prev.File) == ".json" || filepath.Ext(at.File) == ".json":
		where = "in " + prev.File
	}
	return fmt.Sprintf("duplicate server name %q: already registered %s at %s:%d:%d (names compare case-insensitively); a name is registered once across the global and project config and the client files they use, and a project config never takes over a global server: rename one of them",
		name, where, prev.File, prev.Line, prev.Col)
}

type named struct {
	name string
	pos  Pos
}

// rawName is the name an entry was written with, valid or not: duplicates
// are found even among names that break the charset rule.
func rawName(v *node, key string) named {
	f := v.get(key)
	if f == nil || f.val.kind != kindString || f.val.str == "" {
		return named{}
	}
	return named{name: f.val.str, pos: f.at()}
}

// read returns a config file's bytes; a missing file is not a problem.
func (l *loader) read(path string) ([]byte, bool) {
	return l.readFile(path, maxConfigFileBytes, CodeUnreadable)
}

// regularFile reports whether path is a regular file (after symlinks).
func regularFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// readFile returns the bytes of a file of at most limit bytes (regularfile:
// never blocking on a FIFO, regular files only); a missing file is not a
// problem. A file over the limit is overCode (a config file's E222, a
// client file's E243).
func (l *loader) readFile(path string, limit int, overCode fault.Code) ([]byte, bool) {
	at := Pos{File: path, Line: 1, Col: 1}
	data, _, err := regularfile.Read(path, int64(limit), regularfile.Options{})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	l.files = append(l.files, path)
	var nr *regularfile.NotRegularError
	var tl *regularfile.TooLargeError
	switch {
	case errors.As(err, &nr) && nr.Mode.IsDir():
		l.c.add(CodeUnreadable, at, "", "is a directory, not a file")
	case errors.As(err, &nr):
		// A FIFO or a device (a symlink a checkout carries to /dev/tty)
		// would block the read or never end.
		l.c.add(CodeUnreadable, at, "", "is not a regular file but %s; a configuration file is read only from a plain file", regularfile.Kind(nr.Mode))
	case errors.As(err, &tl):
		p := l.c.add(overCode, at, "", "is larger than %s, more than such a file ever holds; nothing in it was read", regularfile.Size(int64(limit)))
		if p.Rule == "" {
			p.Rule = mcpjson.Rule(overCode)
		}
	case err != nil:
		l.c.add(CodeUnreadable, at, "", "cannot read the file: %v", err)
	default:
		return data, true
	}
	return nil, false
}

// err returns every problem found, ordered by file (in reading order) and
// position, or nil.
func (l *loader) err() error {
	if len(l.c.problems) == 0 {
		return nil
	}
	e := Invalid(slices.Clone(l.files), sortProblems(l.c.warnings, l.files), l.project)
	e.Problems = sortProblems(l.c.problems, l.files)
	return e
}

func sortProblems(ps []Problem, files []string) []Problem {
	out := slices.Clone(ps)
	rank := func(f string) int {
		if i := slices.Index(files, f); i >= 0 {
			return i
		}
		return len(files)
	}
	slices.SortStableFunc(out, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(rank(a.File), rank(b.File)), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return out
}
