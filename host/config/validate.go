package config

import (
	"path/filepath"
	"strings"
)

// Report is what Validate found in a configuration with no problem.
type Report struct {
	// Files are every file read: the config files that exist, then each
	// agent file.
	Files    []string        `json:"files"`
	Servers  []ServerSummary `json:"servers"`
	Agents   []AgentSummary  `json:"agents"`
	Warnings []Problem       `json:"warnings"`
}

// ServerSummary is one registration in a Report.
type ServerSummary struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	Source    Pos    `json:"source"`
}

// AgentSummary is one agent in a Report.
type AgentSummary struct {
	Name    string   `json:"name"`
	File    string   `json:"file"`
	Servers []string `json:"servers"`
}

// Validate checks both config files and every agent file of the project in
// one pass, and the agent the invocation names (agent, as --agent takes it:
// a NAME in the project or a FILE anywhere) when it is not one of them.
// With any problem it returns the Report of what was read and an *Error
// holding every problem of every file (exit 2); an agent that does not exist
// is an *AgentNotFoundError (exit 2). Nothing is spawned or dialled.
func Validate(home, project, agent string) (*Report, error) {
	return ValidateFrom(home, project, agent, Sources{})
}

// ValidateFrom is Validate over other sources (see LoadFrom).
func ValidateFrom(home, project, agent string, src Sources) (*Report, error) {
	l := newLoader(home, project)
	l.src = src
	cfg := l.configs()
	rep := &Report{Servers: []ServerSummary{}, Agents: []AgentSummary{}}
	for _, s := range cfg.Servers {
		rep.Servers = append(rep.Servers, ServerSummary{Name: s.Name, Transport: s.Transport, Source: s.Pos})
	}
	files, err := agentFiles(AgentsDir(l.project))
	if err != nil {
		l.c.add(CodeUnreadable, Pos{File: AgentsDir(l.project), Line: 1, Col: 1}, "", "cannot list the agents folder: %v", err)
	}
	for _, f := range files {
		if a := l.agent(f, true, cfg.Servers); a != nil {
			rep.Agents = append(rep.Agents, summarize(a))
		}
	}
	if agent != "" {
		path, inDir, err := cfg.agentPath(agent)
		if err != nil {
			return rep, err
		}
		if !inDir { // a FILE outside the agents folder: not read above
			if a := l.agent(path, false, cfg.Servers); a != nil {
				rep.Agents = append(rep.Agents, summarize(a))
			}
		}
	}
	stray, _ := filepath.Glob(filepath.Join(AgentsDir(l.project), "*.yml"))
	for _, s := range stray {
		l.files = append(l.files, s)
		l.c.add(CodeAgentName, Pos{File: s, Line: 1, Col: 1}, "", "agent files end in .yaml, so --agent never reads this one: rename it to %s.yaml", strings.TrimSuffix(filepath.Base(s), ".yml"))
	}
	rep.Files = append([]string{}, l.files...)
	rep.Warnings = nonNil(sortProblems(l.c.warnings, l.files))
	return rep, l.err()
}

func summarize(a *Agent) AgentSummary {
	sum := AgentSummary{Name: a.Name, File: a.File, Servers: []string{}}
	for _, s := range a.Servers {
		sum.Servers = append(sum.Servers, s.Name)
	}
	return sum
}
