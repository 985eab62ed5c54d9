package config

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/sandbox"
)

// CodeSandbox is a `sandbox` value that is not false, true, "required" or
// a valid table.
const CodeSandbox fault.Code = "E248"

var sandboxKeys = []string{"read", "write", "network", "allow", "required"}

// sandboxField reads a stdio server's `sandbox` (docs/sandbox.md): left
// out or true, the default policy; false, not confined; "required", the
// default and refuse to start where the machine cannot confine; or a
// table { read, write, network = "none"|"guarded"|"open", allow, required }.
func (c *checker) sandboxField(v *node, path, transport string, s *Server) {
	f := v.get("sandbox")
	if f == nil || transport != "stdio" {
		return
	}
	p := join(path, "sandbox")
	switch f.val.kind {
	case kindBad:
		return
	case kindBool:
		s.Sandbox = &sandbox.Decl{Off: !f.val.bool}
		return
	case kindString:
		if f.val.str != "required" {
			c.add(CodeSandbox, f.at(), p, `must be true, false, "required" or a table, got %q`, f.val.str)
			return
		}
		s.Sandbox = &sandbox.Decl{Required: true}
		return
	case kindTable:
	default:
		c.add(CodeSandbox, f.at(), p, `must be true, false, "required" or a table { read = […], write = […], network = "none"|"guarded"|"open", allow = ["host:port"], required = true }, got %s`, f.val.kind)
		return
	}
	t := f.val
	c.unknownKeys(t, p, sandboxKeys, func(k string) string {
		if k == "net" || k == "networking" {
			return `the key is "network"`
		}
		return ""
	})
	d := &sandbox.Decl{}
	d.Read = c.sandboxPaths(t, p, "read")
	d.Write = c.sandboxPaths(t, p, "write")
	if g := t.get("network"); g != nil {
		if n, ok := c.required(g, join(p, "network"), `"none", "guarded" or "open"`); ok {
			if !sandbox.Network(n).Valid() {
				c.add(CodeSandbox, g.at(), join(p, "network"), `must be "none" (no network), "guarded" (through relavium's proxy and network guard) or "open", got %q`, n)
			} else {
				d.Network = sandbox.Network(n)
			}
		}
	}
	if g := t.get("allow"); g != nil {
		items, _, _ := c.strItems(g, join(p, "allow"), CodeSandbox, "host:port strings", "a host:port string")
		for _, it := range items {
			if !hostPortOK(it.val) {
				c.add(CodeSandbox, it.pos, fmt.Sprintf("%s[%d]", join(p, "allow"), it.index), `must be host:port (e.g. "127.0.0.1:8080"): a target the guarded network may reach although the guard would refuse its address, got %q`, it.val)
				continue
			}
			d.Allow = append(d.Allow, it.val)
		}
		if d.Network != sandbox.NetGuarded && len(items) > 0 {
			c.add(CodeSandbox, g.keyPos, join(p, "allow"), `allow is for network = "guarded" (the proxy admits these targets); set network = "guarded" or drop allow`)
		}
	}
	if g := t.get("required"); g != nil {
		d.Required, _ = c.boolean(g, join(p, "required"))
	}
	s.Sandbox = d
}

// sandboxPaths reads a list of paths: absolute, or relative to the
// server's cwd ("." is the cwd itself); never ~.
func (c *checker) sandboxPaths(t *node, p, key string) []string {
	g := t.get(key)
	if g == nil {
		return nil
	}
	items, _, _ := c.strItems(g, join(p, key), CodeSandbox, "paths", "a path")
	var out []string
	for _, it := range items {
		at := fmt.Sprintf("%s[%d]", join(p, key), it.index)
		switch {
		case it.val == "" || strings.ContainsRune(it.val, 0):
			c.add(CodeSandbox, it.pos, at, "must be a path (absolute, or relative to the server's cwd), got %q", it.val)
		case strings.HasPrefix(it.val, "~"):
			c.add(CodeSandbox, it.pos, at, "starts with ~, which no shell expands here: write the absolute path")
		default:
			out = append(out, it.val)
		}
	}
	return out
}
