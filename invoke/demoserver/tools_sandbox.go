package demoserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sandboxTools try what a sandbox refuses, for the sandbox's tests and
// its tour (docs/sandbox.md): the kernel's answer is the result.
func sandboxTools() []newTool {
	return []newTool{sandboxProbeTool}
}

// sandboxProbeTool reads a file, writes one, or opens a TCP connection
// (through HTTPS_PROXY when the environment names one, as a guarded
// server's does) and reports what the kernel said.
func sandboxProbeTool(*Server) tool {
	type probeIn struct {
		Action string `json:"action" jsonschema:"read a file, write a file, or connect to host:port"`
		Target string `json:"target" jsonschema:"an absolute path, or host:port for connect"`
	}
	return typed(&mcp.Tool{Name: "sandbox_probe", Description: "Tries to read a file, write a file or connect to host:port, and reports what the operating system answered: what a sandbox refuses shows here.",
		Annotations: annotate("Sandbox probe", writes, false),
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {
				"action": {"type": "string", "enum": ["read", "write", "connect"]},
				"target": {"type": "string", "minLength": 1, "maxLength": 4096}
			},
			"required": ["action", "target"],
			"additionalProperties": false
		}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest, in probeIn) (*mcp.CallToolResult, any, error) {
			switch in.Action {
			case "read":
				f, err := os.Open(in.Target)
				if err != nil {
					return errorResult(err.Error()), nil, nil
				}
				defer f.Close()
				n, err := io.Copy(io.Discard, io.LimitReader(f, 1<<20))
				if err != nil {
					return errorResult(err.Error()), nil, nil
				}
				return text(fmt.Sprintf("read %d bytes of %s", n, in.Target)), nil, nil
			case "write":
				if err := os.WriteFile(in.Target, []byte("written by relavium's demo server\n"), 0o600); err != nil {
					return errorResult(err.Error()), nil, nil
				}
				return text("wrote " + in.Target), nil, nil
			case "connect":
				how, err := probeConnect(ctx, in.Target)
				if err != nil {
					return errorResult(err.Error()), nil, nil
				}
				return text("connected to " + in.Target + how), nil, nil
			}
			return errorResult("action must be read, write or connect"), nil, nil
		})
}

// probeConnect opens a TCP connection to target, through the HTTPS_PROXY
// of the environment when there is one (an HTTP CONNECT tunnel).
func probeConnect(ctx context.Context, target string) (string, error) {
	d := net.Dialer{Timeout: 5 * time.Second}
	proxy := os.Getenv("HTTPS_PROXY")
	if proxy == "" {
		c, err := d.DialContext(ctx, "tcp", target)
		if err != nil {
			return "", err
		}
		_ = c.Close()
		return "", nil
	}
	u, err := url.Parse(proxy)
	if err != nil {
		return "", fmt.Errorf("HTTPS_PROXY does not parse: %w", err)
	}
	c, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target); err != nil {
		return "", err
	}
	status, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return "", err
	}
	status = strings.TrimSpace(status)
	if !strings.Contains(status, " 200 ") {
		return "", fmt.Errorf("the proxy answered %q", status)
	}
	return " (through the proxy " + u.Host + ")", nil
}
