package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/relavium/relavium/engine"
)

// Agent loads the agent named NAME (<project>/.relavium/agents/NAME.yaml)
// or the agent FILE (a path with a '/' or a .yaml/.yml ending; relative
// paths are taken from the project directory — callers holding a working
// directory should pass an absolute path). Refs are resolved against the
// registrations and every tools_allowlist applied. All problems of the file
// come back at once in an *Error (exit 2); a missing agent is an
// *AgentNotFoundError (exit 2).
func (c *Config) Agent(nameOrFile string) (*Agent, error) {
	path, inDir, err := c.agentPath(nameOrFile)
	if err != nil {
		return nil, err
	}
	l := c.loader()
	a := l.agent(path, inDir, c.Servers)
	if err := l.err(); err != nil {
		return nil, err
	}
	return a, nil
}

// loader starts a pass that knows the loaded registrations.
func (c *Config) loader() *loader {
	l := newLoader(c.Home, c.Project)
	l.c.lookupEnv = c.lookupEnv
	for _, s := range c.Servers {
		l.declared[strings.ToLower(s.Name)] = true
	}
	return l
}

// Declared returns the servers a session uses: the agent's (refs resolved,
// allowlists applied) or, with agent "", every registration. The result is
// the caller's to keep.
func (c *Config) Declared(agent string) ([]Server, error) {
	if agent == "" {
		return cloneServers(c.Servers), nil
	}
	a, err := c.Agent(agent)
	if err != nil {
		return nil, err
	}
	return a.Servers, nil
}

// Lookup returns the registration named name.
func (c *Config) Lookup(name string) (Server, bool) {
	for _, s := range c.Servers {
		if s.Name == name {
			return cloneServer(s), true
		}
	}
	return Server{}, false
}

// ResolveRefs resolves registrations named from elsewhere (a workflow's
// mcp_servers), applying each ref's tools_allowlist, which may only narrow
// the registration's. Problems come back at once in an *Error (exit 2).
func (c *Config) ResolveRefs(refs []Ref) ([]Server, error) {
	l := c.loader()
	out := []Server{}
	for i, r := range refs {
		at := r.Pos
		d := decl{isRef: true, name: r.Name, namePos: at, allow: r.ToolsAllowlist, allowSet: r.ToolsAllowlist != nil, ok: true}
		for range r.ToolsAllowlist {
			d.allowAt = append(d.allowAt, at)
		}
		d.server.Pos = at
		if s, ok := l.resolve(d, fmt.Sprintf("mcp_servers[%d]", i), c.Servers); ok {
			out = append(out, s)
		}
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// AgentFiles lists the project's agent files (*.yaml), sorted.
func (c *Config) AgentFiles() ([]string, error) { return agentFiles(AgentsDir(c.Project)) }

func agentFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		out = append(out, filepath.Join(dir, e.Name()))
	}
	sort.Strings(out)
	return out, nil
}

func isAgentFileRef(s string) bool {
	return strings.ContainsAny(s, `/\`) || strings.HasSuffix(s, ".yaml") || strings.HasSuffix(s, ".yml")
}

func (c *Config) agentPath(nameOrFile string) (string, bool, error) {
	dir := AgentsDir(c.Project)
	if isAgentFileRef(nameOrFile) {
		p := nameOrFile
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.Project, p)
		}
		st, err := os.Stat(p)
		if err != nil || st.IsDir() {
			return "", false, agentNotFound(nameOrFile, p, nil, "", err)
		}
		return p, filepath.Dir(p) == dir, nil
	}
	p := filepath.Join(dir, nameOrFile+".yaml")
	if st, err := os.Stat(p); err != nil || st.IsDir() || nameOrFile == "" {
		var names []string
		files, _ := agentFiles(dir)
		for _, f := range files {
			names = append(names, strings.TrimSuffix(filepath.Base(f), ".yaml"))
		}
		return "", false, agentNotFound(nameOrFile, p, names, engine.Suggest(nameOrFile, names), err)
	}
	return p, true, nil
}

// agent reads and checks one agent file; nil when it had problems.
func (l *loader) agent(path string, inDir bool, regs []Server) *Agent {
	before := len(l.c.problems)
	c := &l.c
	data, ok := l.read(path)
	if !ok {
		if len(c.problems) == before { // vanished between listing and reading
			c.add(CodeUnreadable, Pos{File: path, Line: 1, Col: 1}, "", "the agent file does not exist")
		}
		return nil
	}
	return l.agentData(path, data, inDir, regs)
}

// agentData checks an agent file's bytes; nil when it had problems.
func (l *loader) agentData(path string, data []byte, inDir bool, regs []Server) *Agent {
	before := len(l.c.problems)
	c := &l.c
	root := readYAML(path, data, c)
	if len(c.problems) != before {
		return nil
	}
	top := Pos{File: path, Line: 1, Col: 1}
	if root == nil || root.kind == kindNull {
		c.add(CodeRequired, top, "", "the agent file is empty: declare name, description and mcp_servers")
		return nil
	}
	if root.kind != kindTable {
		c.add(CodeType, root.pos, "", "an agent file is a mapping with name, description and mcp_servers, got %s", root.kind)
		return nil
	}
	c.unknownKeys(root, "", []string{"name", "description", "mcp_servers"}, func(k string) string {
		switch strings.ToLower(k) {
		case "mcpservers", "servers", "mcp-servers", "mcp":
			return "an agent's servers are listed under mcp_servers"
		}
		return ""
	})
	stem := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".yaml"), ".yml")
	a := &Agent{Name: stem, File: path, Servers: []Server{}}
	if f := root.get("name"); f != nil {
		if name, ok := c.required(f, "name", "the agent's name, equal to its file name"); ok {
			switch {
			case !validAgentName(name):
				c.add(CodeName, f.at(), "name", "agent name %q is not valid: use lowercase letters, digits, '_' and '-' (it is also the file name, --agent NAME)", name)
			case inDir && name != stem:
				c.add(CodeAgentName, f.at(), "name", "agent name %q differs from its file name %q: --agent %s reads %s.yaml, so rename the file or set name: %s", name, stem, name, name, stem)
			default:
				a.Name = name
			}
		}
	}
	if f := root.get("description"); f != nil && f.val.kind != kindNull {
		a.Description, _ = c.str(f, "description")
	}
	if f := root.get("mcp_servers"); f != nil {
		a.Servers = l.agentServers(f, regs)
	}
	if len(c.problems) != before {
		return nil
	}
	for _, w := range c.warnings {
		if w.File == path {
			a.Warnings = append(a.Warnings, w)
		}
	}
	return a
}

func (l *loader) agentServers(f *field, regs []Server) []Server {
	c := &l.c
	switch f.val.kind {
	case kindNull, kindBad:
		return []Server{}
	case kindArray:
	default:
		c.add(CodeType, f.at(), "mcp_servers", "must be a list of servers (each an inline entry with id, or a ref), got %s", f.val.kind)
		return nil
	}
	out := []Server{}
	seen := map[string]Pos{}
	for i, item := range f.val.items {
		path := fmt.Sprintf("mcp_servers[%d]", i)
		d := c.server(item, path, inline, l.project)
		key := "id"
		raw := rawName(item, "id")
		if d.isRef {
			key, raw = "ref", rawName(item, "ref")
		}
		if raw.name != "" {
			k := strings.ToLower(raw.name)
			if prev, dup := seen[k]; dup {
				c.add(CodeDuplicateName, raw.pos, join(path, key),
					"server %q is declared twice in this agent (first at %d:%d; names compare case-insensitively): each server appears once, as mcp_%s_<tool>", raw.name, prev.Line, prev.Col, strings.ToLower(raw.name)).Related = []Pos{prev}
				continue
			}
			seen[k] = raw.pos
		}
		if !d.ok {
			if d.isRef && d.name != "" {
				l.registration(d, path, regs) // every problem at once: an unknown name too
			}
			continue
		}
		if !d.isRef {
			out = append(out, d.server)
			continue
		}
		if s, ok := l.resolve(d, path, regs); ok {
			out = append(out, s)
		}
	}
	return out
}

// resolve turns a checked ref into its registration, narrowing the tools.
// base is the entry's field path (mcp_servers[2]).
func (l *loader) resolve(d decl, base string, regs []Server) (Server, bool) {
	c := &l.c
	reg := l.registration(d, base, regs)
	if reg == nil {
		return Server{}, false
	}
	s := cloneServer(*reg)
	refPos := d.server.Pos
	s.Ref = &refPos
	if d.allowSet && d.allow != nil {
		if reg.ToolsAllowlist != nil {
			ok := true
			for i, t := range d.allow {
				if !slices.Contains(reg.ToolsAllowlist, t) {
					c.add(CodeToolsAllowlist, d.allowAt[i], fmt.Sprintf("%s[%d]", join(base, "tools_allowlist"), i),
						"%q is not in the tools_allowlist of registration %q at %s:%d:%d (%s): a ref may only narrow it", t, reg.Name, reg.Pos.File, reg.Pos.Line, reg.Pos.Col, strings.Join(reg.ToolsAllowlist, ", ")).Related = []Pos{reg.Pos}
					ok = false
				}
			}
			if !ok {
				return Server{}, false
			}
		}
		s.ToolsAllowlist = slices.Clone(d.allow)
	}
	return s, true
}

// registration returns the registration a ref names, or nil. An unknown
// name is reported (E220); a name whose registration exists but has problems
// of its own is nil without a second report: those are reported where the
// registration is written.
func (l *loader) registration(d decl, base string, regs []Server) *Server {
	for i := range regs {
		if regs[i].Name == d.name {
			return &regs[i]
		}
	}
	if l.declared[strings.ToLower(d.name)] {
		return nil
	}
	names := make([]string, 0, len(l.declared))
	for n := range l.declared {
		names = append(names, n)
	}
	sort.Strings(names)
	msg := fmt.Sprintf("ref %q names no [[mcp_servers]] registration in %s or %s", d.name, GlobalFile(l.home), ProjectFile(l.project))
	if s := engine.Suggest(d.name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	if len(names) > 0 {
		msg += " (registered: " + strings.Join(names, ", ") + ")"
	} else {
		msg += "; no server is registered: add a [[mcp_servers]] table with this name, or declare the server inline with id"
	}
	l.c.add(CodeUnknownRef, d.namePos, join(base, "ref"), "%s", msg)
	return nil
}

func cloneServer(s Server) Server {
	s.Args = slices.Clone(s.Args)
	s.Env = slices.Clone(s.Env)
	s.ToolsAllowlist = slices.Clone(s.ToolsAllowlist)
	s.ToolsAutoApprove = slices.Clone(s.ToolsAutoApprove)
	if s.Ref != nil {
		p := *s.Ref
		s.Ref = &p
	}
	return s
}

func cloneServers(in []Server) []Server {
	out := make([]Server, 0, len(in))
	for _, s := range in {
		out = append(out, cloneServer(s))
	}
	return out
}
