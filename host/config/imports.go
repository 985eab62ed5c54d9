package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/relavium/relavium/authored"
	"github.com/relavium/relavium/consent/urlref"
	"github.com/relavium/relavium/host/config/mcpjson"
)

// Sources says where servers come from besides relavium's own files.
type Sources struct {
	// Files are client files (--config FILE, absolute) read INSTEAD of the
	// relavium config files and the project's discovered client files.
	Files []string
	// AllowLocal names servers of those files (as relavium names them, or
	// as the file writes them) whose loopback or private url the person
	// allows for this read, as allow_local_endpoint = true would: the
	// remedy that needs no edit of the other client's file
	// (config import FILE --allow-local NAME).
	AllowLocal []string
	// LookupEnv reads relavium's environment for the {{env.VAR}} of a
	// network server's url (nil: every variable unset). The url is
	// admitted as it expands, when the file is read, as a literal url is.
	LookupEnv func(string) (string, bool)
}

// allowsLocal reports whether the person allowed e's local url.
func (s Sources) allowsLocal(e mcpjson.Entry) bool {
	return slices.Contains(s.AllowLocal, e.Name) || slices.Contains(s.AllowLocal, e.Written)
}

// Import says which client file a server was translated from. The
// server's Pos is where the file writes its name.
type Import struct {
	// Shape is the file's shape: mcpServers, vscode or claude-state.
	Shape string `json:"shape"`
	// Written is the server's name as the file writes it (it differs from
	// Name when the name rule mapped it).
	Written string `json:"written"`
	// Inputs are the VS Code inputs its env uses: relavium asks for each as
	// the secret named by its id.
	Inputs []mcpjson.Input `json:"inputs,omitempty"`
}

// Offer is a client file found in the project and not used: the project
// has a relavium config that does not import it.
type Offer struct {
	File    string         `json:"file"`
	Servers []OfferedEntry `json:"servers"`
}

// OfferedEntry is one server an offered file declares.
type OfferedEntry struct {
	Name string `json:"name"`
	Pos  Pos    `json:"source"`
}

// ProjectClientFiles are the client files a project may keep beside
// .relavium/, in the order they are read: Claude Code's, VS Code's,
// Cursor's.
func ProjectClientFiles(project string) []string {
	return []string{
		filepath.Join(project, ".mcp.json"),
		filepath.Join(project, ".vscode", "mcp.json"),
		filepath.Join(project, ".cursor", "mcp.json"),
	}
}

// LoadFrom is Load with other sources: with src.Files, those client files
// are read instead of the relavium config files.
func LoadFrom(home, project string, src Sources) (*Config, error) {
	l := newLoader(home, project)
	l.src = src
	cfg := l.configs()
	if err := l.err(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// importRef is one client file to read: where it was named (the import
// entry, or nothing for --config and a discovered file).
type importRef struct {
	path     string
	at       Pos
	required bool // a missing file is a problem (named by --config or import)
	// project: the project named it (found beside .relavium/, or its
	// config's import); its target must lie inside the project.
	project bool
}

// imports reads every client file the configuration uses, after the
// relavium files (so a duplicate name points at the registration first).
func (l *loader) imports(cfg *Config, seen map[string]Pos, named []importRef, projectConfig bool) {
	refs := named
	var found []string
	for _, f := range ProjectClientFiles(l.project) {
		if regularFile(f) {
			found = append(found, f)
		}
	}
	if !projectConfig {
		for _, f := range found {
			refs = append(refs, importRef{path: f, project: true})
		}
	}
	read := map[string]bool{}
	for _, r := range refs {
		if read[r.path] {
			continue
		}
		read[r.path] = true
		l.importFile(r, cfg, seen)
	}
	for _, f := range found {
		if !read[f] {
			cfg.Offered = append(cfg.Offered, l.offer(f))
		}
	}
}

// importFile reads one client file and checks each server it translates
// with the rules of a registration.
func (l *loader) importFile(r importRef, cfg *Config, seen map[string]Pos) {
	if r.project && !l.insideProject(r.path) {
		at := r.at
		if at.File == "" {
			at = Pos{File: r.path, Line: 1, Col: 1}
		}
		l.c.add(CodeUnreadable, at, "", "is a link to a file outside the project; a project's client files are read only from the project itself (name a file of yours with --config FILE)")
		return
	}
	data, ok := l.readFile(r.path, mcpjson.MaxFileBytes, mcpjson.CodeNesting)
	if !ok {
		if r.required && !slices.Contains(l.files, r.path) {
			at, field := r.at, "import"
			if at.File == "" { // named by --config
				at, field = Pos{File: r.path, Line: 1, Col: 1}, ""
			}
			l.c.add(CodeUnreadable, at, field, "no such file: %s", r.path)
		}
		return
	}
	f := mcpjson.Read(r.path, data, mcpjson.Options{Project: l.project, Name: importName})
	entryProblems := l.adoptImport(f)
	for i, e := range f.Entries {
		// One bad entry fails only itself: its problems, the translation's
		// and the registration rules', go with it to cfg.Failed.
		failed := FailedServer{Name: e.Name, Written: e.Written, File: r.path, Pos: e.Pos, Problems: entryProblems[i]}
		if e.Failed {
			cfg.Failed = append(cfg.Failed, failed)
			continue
		}
		before := len(l.c.problems)
		entry := entryNode(e)
		if l.src.allowsLocal(e) {
			entry.fields = append(entry.fields, &field{key: "allow_local_endpoint", keyPos: e.Pos, val: &node{kind: kindBool, bool: true, pos: e.Pos}})
		}
		l.c.holdLocal = true // another client's file: a local url waits for the person's word
		for _, in := range e.Inputs {
			l.c.typed = append(l.c.typed, in.ID)
		}
		d := l.c.server(entry, e.Path, registration, l.project)
		l.c.holdLocal, l.c.typed = false, nil
		key := strings.ToLower(e.Name)
		if prev, dup := seen[key]; dup {
			l.c.add(CodeDuplicateName, e.Pos, e.Path, "%s", duplicateMessage(e.Name, prev, e.Pos)).Related = []Pos{prev}
		}
		if len(l.c.problems) > before {
			for _, p := range l.c.problems[before:] {
				if p.Code == CodeURL && strings.Contains(p.Message, "allow_local_endpoint") {
					// The remedy may not be an edit of another client's file.
					p.Message = strings.SplitN(p.Message, ";", 2)[0] + fmt.Sprintf("; if it is yours, without editing this file: relavium config import %s --allow-local %s (or declare it in .relavium/config.toml with allow_local_endpoint = true)", r.path, e.Name)
				}
				failed.Problems = append(failed.Problems, p)
			}
			l.c.problems = l.c.problems[:before]
			cfg.Failed = append(cfg.Failed, failed)
			continue
		}
		l.declared[key] = true
		seen[key] = e.Pos
		if d.ok {
			s := d.server
			s.Pos = e.Pos
			s.Import = &Import{Shape: f.Shape, Written: e.Written, Inputs: e.Inputs}
			cfg.Servers = append(cfg.Servers, s)
		}
	}
	l.dropUnasked(f, cfg.Failed)
}

// dropUnasked removes the undeclared-input warnings (E242) of f's servers
// that were not imported: "relavium will ask for it" would promise what no
// server will do (its failure says why).
func (l *loader) dropUnasked(f *mcpjson.File, failed []FailedServer) {
	l.c.warnings = slices.DeleteFunc(l.c.warnings, func(p Problem) bool {
		if p.Code != mcpjson.CodeInput || p.File != f.Path {
			return false
		}
		i := entryOf(f, p.Field)
		return i >= 0 && slices.ContainsFunc(failed, func(s FailedServer) bool { return s.File == f.Path && s.Pos == f.Entries[i].Pos })
	})
}

// entryOf is the index of the entry a problem's field lies in (-1: the
// file's own problem, not one server's).
func entryOf(f *mcpjson.File, field string) int {
	for i, e := range f.Entries {
		if field == e.Path || strings.HasPrefix(field, e.Path+".") || strings.HasPrefix(field, e.Path+"[") {
			return i
		}
	}
	return -1
}

// insideProject reports whether path, its links followed, lies inside the
// project (a missing file does: it is reported as missing).
func (l *loader) insideProject(path string) bool {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return true
	}
	root, err := filepath.EvalSymlinks(l.project)
	if err != nil {
		root = l.project
	}
	rel, err := filepath.Rel(root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// adoptImport records a client file's warnings, and its problems: those
// of one server are returned by entry (they fail only that server), the
// file's own are config's errors.
func (l *loader) adoptImport(f *mcpjson.File) map[int][]Problem {
	byEntry := map[int][]Problem{}
	for _, p := range f.Problems {
		cp := Problem{Problem: p, Rule: mcpjson.Rule(p.Code), Severity: severityError}
		if i := entryOf(f, p.Field); i >= 0 {
			byEntry[i] = append(byEntry[i], cp)
			continue
		}
		l.c.problems = append(l.c.problems, cp)
	}
	for _, p := range f.Warnings {
		l.c.warnings = append(l.c.warnings, Problem{Problem: p, Rule: mcpjson.Rule(p.Code), Severity: severityWarning})
	}
	return byEntry
}

// offer lists the servers of a client file the configuration does not use.
func (l *loader) offer(path string) Offer {
	var probe loader
	if !l.insideProject(path) {
		return Offer{File: path, Servers: []OfferedEntry{}} // a link outside: never read
	}
	data, ok := probe.readFile(path, mcpjson.MaxFileBytes, mcpjson.CodeNesting)
	if !ok {
		return Offer{File: path, Servers: []OfferedEntry{}}
	}
	return offerOf(path, mcpjson.Read(path, data, mcpjson.Options{Project: l.project, Name: importName}))
}

func offerOf(path string, f *mcpjson.File) Offer {
	o := Offer{File: path, Servers: []OfferedEntry{}}
	for _, e := range f.Entries {
		o.Servers = append(o.Servers, OfferedEntry{Name: e.Name, Pos: e.Pos})
	}
	return o
}

// importName maps a name as a client writes it to a relavium name:
// unchanged when it keeps the rule; else lowercased, '_', blanks, '.', '/'
// and ':' made '-', anything else dropped, repeated '-' folded, at most 48
// characters. ok is false when nothing is left.
func importName(written string) (string, bool) {
	if validServerName(written) {
		return written, true
	}
	s := fixServerName(strings.ReplaceAll(written, ":", "-"))
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "-")
	}
	if len(s) > maxServerNameLen {
		s = s[:maxServerNameLen]
	}
	s = strings.Trim(s, "-")
	return s, validServerName(s)
}

// entryNode is a translated entry as the node tree the registration rules
// check.
func entryNode(e mcpjson.Entry) *node {
	n := &node{kind: kindTable, pos: e.Pos}
	for _, m := range e.Fields {
		n.fields = append(n.fields, &field{key: m.Key, keyPos: m.KeyPos, val: valueNode(m.Value)})
	}
	return n
}

func valueNode(v *mcpjson.Value) *node {
	n := &node{pos: v.Pos}
	switch v.Kind {
	case mcpjson.String:
		n.kind, n.str = kindString, v.Str
	case mcpjson.Bool:
		n.kind, n.bool = kindBool, v.Bool
	case mcpjson.Number:
		n.kind, n.spelled = kindFloat, v.Str
		if i, err := strconv.ParseInt(v.Str, 10, 64); err == nil {
			n.kind, n.num = kindInt, i
		}
	case mcpjson.Array:
		n.kind = kindArray
		for _, it := range v.Items {
			n.items = append(n.items, valueNode(it))
		}
	case mcpjson.Object:
		n.kind = kindTable
		for _, m := range v.Members {
			n.fields = append(n.fields, &field{key: m.Key, keyPos: m.KeyPos, val: valueNode(m.Value)})
		}
	default:
		n.kind = kindNull
	}
	return n
}

// importList reads a config file's import = ["FILE", …]: client files,
// relative to base (the project for the project config, the home for the
// global one). The project's config may name only files inside the
// project.
func (l *loader) importList(root *node, base string, inProject bool) []importRef {
	f := root.get("import")
	if f == nil {
		return nil
	}
	items, _, ok := l.c.strItems(f, "import", CodeType, "file names", "a file name")
	if !ok {
		return nil
	}
	var refs []importRef
	for _, it := range items {
		p := it.val
		if strings.TrimSpace(p) == "" || strings.ContainsRune(p, 0) {
			l.c.add(CodeValue, it.pos, fmt.Sprintf("import[%d]", it.index), "is not a file name")
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		p = filepath.Clean(p)
		if rel, err := filepath.Rel(base, p); inProject && (err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))) {
			// A cloned project must not reach the person's own client files
			// (Claude Desktop's, ~/.claude.json): those are read only when
			// the person names them.
			l.c.add(CodeValue, it.pos, fmt.Sprintf("import[%d]", it.index), "names a file outside the project; a project's config imports only the project's own files (name a file of yours with --config FILE, or import it from the global config.toml)")
			continue
		}
		refs = append(refs, importRef{path: p, at: it.pos, required: true, project: inProject})
	}
	return refs
}

// ClientFile is one place a client keeps MCP servers.
type ClientFile struct {
	Client string `json:"client"`
	Path   string `json:"path"`
	// Global files are read only when named (--config); project files are
	// found beside .relavium/.
	Global bool `json:"global"`
}

// ClientFiles lists where each client keeps its servers: the project's
// files, then the person's global ones under userHome (none when it is
// ""). goos and appData (Windows' %APPDATA%) place Claude Desktop's file.
func ClientFiles(project, userHome, goos, appData string) []ClientFile {
	p := ProjectClientFiles(project)
	out := []ClientFile{{Client: "Claude Code (project)", Path: p[0]}, {Client: "VS Code (workspace)", Path: p[1]}, {Client: "Cursor (project)", Path: p[2]}}
	if userHome == "" {
		return out
	}
	config := filepath.Join(userHome, ".config") // where each desktop app keeps its settings
	switch goos {
	case "darwin":
		config = filepath.Join(userHome, "Library", "Application Support")
	case "windows":
		config = appData
		if config == "" {
			config = filepath.Join(userHome, "AppData", "Roaming")
		}
	}
	return append(out,
		ClientFile{Client: "Claude Desktop", Path: filepath.Join(config, "Claude", "claude_desktop_config.json"), Global: true},
		ClientFile{Client: "VS Code (user)", Path: filepath.Join(config, "Code", "User", "mcp.json"), Global: true},
		ClientFile{Client: "Claude Code (user, local)", Path: filepath.Join(userHome, ".claude.json"), Global: true},
		ClientFile{Client: "Cursor (global)", Path: filepath.Join(userHome, ".cursor", "mcp.json"), Global: true},
		ClientFile{Client: "Windsurf", Path: filepath.Join(userHome, ".codeium", "windsurf", "mcp_config.json"), Global: true},
		ClientFile{Client: "MCP Inspector catalog", Path: filepath.Join(userHome, ".mcp-inspector", "mcp.json"), Global: true},
	)
}

// Survey lists the servers a client file declares and counts its
// problems, without using it: for `config sources`. ok is false when the
// file is absent or unreadable.
func Survey(path, project string) (o Offer, problems int, ok bool) {
	var l loader
	l.project = project
	data, read := l.readFile(path, mcpjson.MaxFileBytes, mcpjson.CodeNesting)
	if !read {
		return Offer{File: path, Servers: []OfferedEntry{}}, len(l.c.problems), false
	}
	f := mcpjson.Read(path, data, mcpjson.Options{Project: project, Name: importName})
	return offerOf(path, f), len(f.Problems), true
}

// Writable splits imported servers into those relavium's own config.toml
// can hold and those held for the person's word on their loopback or
// private address (LocalHeld): config import writes no held server, since
// a config.toml that names a local url without allow_local_endpoint is
// refused whole (E215). Each held one is returned failed, naming the flag
// that imports it (--allow-local NAME, the person's word).
//
// A server whose url's host the person types (a VS Code ${input:id}) is
// not written either: in relavium's own config.toml a secret never chooses
// where to go, so the file is used as it is (import = ["FILE"]).
func Writable(servers []Server, file string) (kept []Server, held []FailedServer) {
	for _, s := range servers {
		typed := ""
		if refs, err := urlref.Read(s.URL); err == nil {
			for _, r := range refs {
				if r.TypedHost {
					typed = r.Text()
				}
			}
		}
		if !s.LocalHeld && typed == "" {
			kept = append(kept, s)
			continue
		}
		written := s.Name
		if s.Import != nil {
			written = s.Import.Written
		}
		p := Problem{Problem: authored.Problem{Code: CodeURL, Pos: s.Pos, Field: "url",
			Message: fmt.Sprintf("names a loopback or private address, dialled only on your word; if it is yours, import it with: relavium config import %s --allow-local %s (written with allow_local_endpoint = true)", file, s.Name)},
			Rule: ruleOf(CodeURL), Severity: severityError}
		if typed != "" {
			p = Problem{Problem: authored.Problem{Code: CodeSecretRef, Pos: s.Pos, Field: "url",
				Message: fmt.Sprintf("its url's host is typed when the server connects (%s), which relavium's config.toml cannot hold (there a secret never chooses where to go): use the file as it is, with import = [%q] in .relavium/config.toml or --config %s", typed, file, file)},
				Rule: ruleOf(CodeSecretRef), Severity: severityError}
		}
		held = append(held, FailedServer{Name: s.Name, Written: written, File: file, Pos: s.Pos, Problems: []Problem{p}})
	}
	return kept, held
}
