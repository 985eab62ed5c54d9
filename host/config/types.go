package config

import "time"

// Pos is where an authored value sits.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"column"`
}

// EnvVar is one declared environment entry of a stdio server, in authored order.
type EnvVar struct {
	Name  string
	Value string // may be a {{secrets.NAME}} reference; never logged
}

// Server is one validated server declaration (a registration, or an agent's
// inline entry, or a ref resolved to its registration).
type Server struct {
	Name               string        `json:"name"`
	Transport          string        `json:"transport"` // stdio | http | sse | websocket
	Command            string        `json:"command,omitempty"`
	Args               []string      `json:"args,omitempty"`
	Env                []EnvVar      `json:"-"`
	Dir                string        `json:"cwd,omitempty"` // stdio: the directory the child is spawned in
	URL                string        `json:"url,omitempty"`
	AllowLocalEndpoint bool          `json:"allow_local_endpoint,omitempty"`
	ConnectTimeout     time.Duration `json:"-"` // 0 = the transport's default
	ToolsAllowlist     []string      `json:"tools_allowlist,omitempty"`
	Autostart          bool          `json:"autostart,omitempty"`
	Pos                Pos           `json:"source"`
}

// Config is the union of the global and project configuration files.
type Config struct {
	Home    string
	Project string
	Theme   string
	Servers []Server
}

// Agent is a loaded agent with its servers resolved.
type Agent struct {
	Name        string
	Description string
	File        string
	Servers     []Server
}
