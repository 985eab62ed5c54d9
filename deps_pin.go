//go:build relavium_deps

// This file only pins the chosen dependencies in go.mod while the packages
// that use them are being written; it is never built.
package main

import (
	_ "code.dny.dev/ssrf"
	_ "github.com/charmbracelet/bubbles/key"
	_ "github.com/charmbracelet/bubbletea"
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/charmbracelet/x/exp/teatest"
	_ "github.com/coder/websocket"
	_ "github.com/goccy/go-yaml"
	_ "github.com/google/jsonschema-go/jsonschema"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/pelletier/go-toml/v2/unstable"
	_ "go.uber.org/goleak"
	_ "golang.org/x/sys/unix"
)
