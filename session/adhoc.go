package session

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
)

// CodeBadAdhoc: an ad-hoc server given at run time (the workbench's
// palette) is empty, over 4096 bytes, holds a NUL byte, begins with a
// flag, or is a url of no MCP scheme.
const CodeBadAdhoc fault.Code = "E986"

// AdhocName is the name an ad-hoc server takes: adhoc, as `mcp ls --url /
// --stdio` names its one, or adhoc-2, adhoc-3… when that is taken.
const AdhocName = "adhoc"

// declarations are a session's declared servers. The workbench adds an
// ad-hoc server while connects, calls and sign-ins read the list, so every
// read is of a copy taken under the lock.
type declarations struct {
	mu    sync.RWMutex
	list  []config.Server
	adhoc map[string]bool // names added at run time (no source, no grants)
}

func (d *declarations) all() []config.Server {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return slices.Clone(d.list)
}

func (d *declarations) isAdhoc(name string) bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.adhoc[name]
}

// add declares srv under the first free name of adhoc, adhoc-2, … and
// returns that name.
func (d *declarations) add(srv config.Server) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	taken := map[string]bool{}
	for _, s := range d.list {
		taken[s.Name] = true
	}
	srv.Name = AdhocName
	for i := 2; taken[srv.Name]; i++ {
		srv.Name = fmt.Sprintf("%s-%d", AdhocName, i)
	}
	if d.adhoc == nil {
		d.adhoc = map[string]bool{}
	}
	d.adhoc[srv.Name] = true
	d.list = append(d.list, srv)
	return srv.Name
}

// AdhocURL is the ad-hoc server of a url, as `--url` builds it: Streamable
// HTTP, or WebSocket for ws:// and wss://; allowLocal is the
// --allow-local-endpoint opt-in the guard reads.
func AdhocURL(name, url string, allowLocal bool, headers []config.Header) config.Server {
	transport := host.TransportHTTP
	if strings.HasPrefix(url, "ws://") || strings.HasPrefix(url, "wss://") {
		transport = host.TransportWebsocket
	}
	return config.Server{Name: name, Transport: transport, URL: url, AllowLocalEndpoint: allowLocal, Headers: headers}
}

// AdhocStdio is the ad-hoc server of a command line, as `--stdio` builds
// it: split on blanks, no shell, run in dir (the project).
func AdhocStdio(name string, words []string, dir string) config.Server {
	return config.Server{Name: name, Transport: host.TransportStdio, Command: words[0], Args: slices.Clone(words[1:]), Dir: dir}
}

// MaxAdhocLine bounds, in bytes, what a person can type as one ad-hoc
// server.
const MaxAdhocLine = 4096

// ParseAdhoc reads what a person typed to connect a server: a url
// (http://, https://, ws://, wss://), or a command line split on blanks
// (no shell, run in dir). A trailing or leading --allow-local-endpoint
// opts a url into a loopback or private address, as the flag does.
func ParseAdhoc(line, dir string) (config.Server, error) {
	bad := func(format string, a ...any) error { return codes.New(CodeBadAdhoc, format, a...) }
	if len(line) > MaxAdhocLine {
		return config.Server{}, bad("the server is %d bytes; at most %d", len(line), MaxAdhocLine)
	}
	if strings.ContainsRune(line, 0) {
		return config.Server{}, bad("the server holds a NUL byte")
	}
	words := strings.Fields(line)
	allowLocal := false
	if i := slices.Index(words, "--allow-local-endpoint"); i >= 0 && len(words) > 1 && (i == 0 || i == len(words)-1) && isURL(words[len(words)-1-i]) {
		allowLocal = true
		words = slices.Delete(words, i, i+1)
	}
	if len(words) == 0 {
		return config.Server{}, bad(`nothing to connect; give a url (http, https, ws, wss) or "COMMAND ARG…"`)
	}
	if isURL(words[0]) {
		if len(words) > 1 {
			return config.Server{}, bad("a url is one word; only --allow-local-endpoint may follow it")
		}
		return AdhocURL(AdhocName, words[0], allowLocal, nil), nil
	}
	if strings.Contains(words[0], "://") {
		return config.Server{}, bad("%s is not a url relavium connects (http, https, ws, wss)", schemeOf(words[0]))
	}
	if strings.HasPrefix(words[0], "-") {
		return config.Server{}, bad("%q is a flag, not a command; give a url or \"COMMAND ARG…\"", words[0])
	}
	return AdhocStdio(AdhocName, words, dir), nil
}

func isURL(w string) bool {
	for _, p := range []string{"http://", "https://", "ws://", "wss://"} {
		if len(w) >= len(p) && strings.EqualFold(w[:len(p)], p) {
			return true
		}
	}
	return false
}

func schemeOf(w string) string {
	s, _, _ := strings.Cut(w, "://")
	if len(s) > 16 {
		s = s[:16] + "…"
	}
	return fmt.Sprintf("%q", s+"://")
}

// Declare adds the ad-hoc server srv to the session under the first free
// name of adhoc, adhoc-2, … and returns the name. Nothing is resolved,
// asked or dialled: the face decides its consent (a stdio server asks like
// any other, and is never remembered) and connects it by name.
func (s *Session) Declare(srv config.Server) string { return s.decl.add(srv) }

// IsAdhoc reports whether name was added at run time (Declare): it has no
// source and no remembered grant.
func (s *Session) IsAdhoc(name string) bool { return s.decl.isAdhoc(name) }

// AddAdhoc declares srv in the live session and connects it: a stdio
// server only once consent approved it (Decide and Record before, as for a
// declared one: a pending one fails with E301), a url admitted by the guard
// before anything is dialled.
func (l *Live) AddAdhoc(ctx context.Context, srv config.Server) (string, error) {
	name := l.s.Declare(srv)
	return name, l.Connect(ctx, name)
}
